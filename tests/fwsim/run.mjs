// Runs a scripted reader board (tests/fwsim) under MicroPython's WebAssembly port.
//
//   node run.mjs <micropython.mjs> <firmware dir> <scenario> <json args> [fd]
//
// The firmware's *.py go to /firmware on MicroPython's filesystem (boot.py and main.py
// also to the root, as on a board), this folder's *.py to /sim. The optional fd is the
// master side of a pseudo-terminal that the host test opened: the board's USB serial.
// The heap is about what a Pico has free after boot (190 KB), so firmware that needs
// more memory than a Pico has fails here too.
//
// A scenario of scenario.py runs once and prints "RESULT <json>"; exit status 0 if it
// finished, 1 with MicroPython's traceback on stderr if it raised.
//
// The scenario "board" is a board to reflash (sim_board.py): MicroPython's output goes
// to the pseudo-terminal as a Pico's goes to USB; its main loop runs until Ctrl-C, then
// the REPL (normal and raw, as mpremote uses it) takes the bytes, with Ctrl-D a soft
// reset and machine.reset() a new boot from the files on the board. It logs JSON lines
// on stderr and runs until killed; it exits with status 3 if the watchdog would have
// reset the board.
//
// FWSIM_TRACE=1 logs every byte to and from the REPL on stderr (for debugging mpremote).
import fs from "fs";
import path from "path";
import url from "url";

const [mjs, firmwareDir, scenario, argsJson, fdArg] = process.argv.slice(2);
const { loadMicroPython } = await import(url.pathToFileURL(path.resolve(mjs)).href);
const here = path.dirname(url.fileURLToPath(import.meta.url));
const fd = fdArg === undefined ? -1 : Number(fdArg);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepMs = (ms) => Atomics.wait(sleeper, 0, 0, ms);
const board = scenario === "board";

// MicroPython's output: to our stdout for scenarios, to the "USB" for a board.
let pendingOut = [];
function flushOut() {
  if (!pendingOut.length) return;
  const data = Buffer.from(pendingOut);
  pendingOut = [];
  if (process.env.FWSIM_TRACE) process.stderr.write(`out ${JSON.stringify(data.toString("latin1"))}\n`);
  if (board && fd >= 0) writeFd(data);
  else process.stdout.write(data);
}

function readFd(limit) {
  if (fd < 0) return Buffer.alloc(0);
  const buf = Buffer.alloc(limit);
  try {
    return buf.subarray(0, fs.readSync(fd, buf, 0, limit, null));
  } catch (err) {
    if (err.code === "EAGAIN" || err.code === "EIO") return Buffer.alloc(0);
    throw err;
  }
}

function writeFd(data) {
  if (fd < 0) return data.length;
  try {
    return fs.writeSync(fd, data);
  } catch (err) {
    if (err.code === "EAGAIN" || err.code === "EIO") return 0; // nobody reading: a stalled port
    throw err;
  }
}

const mp = await loadMicroPython({
  heapsize: 192 * 1024,
  linebuffer: false,
  stdout: (bytes) => {
    for (const b of bytes) pendingOut.push(b);
    if (!board && bytes[0] === 10) flushOut();
  },
  stderr: (bytes) => process.stderr.write(bytes),
});

function copyTree(dir, target) {
  mp.FS.mkdir(target);
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${target}/${name}`, fs.readFileSync(path.join(dir, name)));
  }
}
copyTree(firmwareDir, "/firmware");
copyTree(here, "/sim");
for (const name of ["boot.py", "main.py"]) {
  if (fs.existsSync(path.join(firmwareDir, name))) {
    mp.FS.writeFile(`/${name}`, fs.readFileSync(path.join(firmwareDir, name)));
  }
}

let unread = Buffer.alloc(0); // bytes that came after a Ctrl-C: the REPL gets them
let resetRequested = false;
mp.registerJsModule("hostio", {
  now_us: () => Math.floor(performance.now() * 1000),
  sleep_us: (us) => sleepMs(us / 1000),
  read_hex: (limit) => readFd(limit).toString("hex"),
  write_hex: (hex) => {
    flushOut(); // what the board printed comes before what it writes next
    return writeFd(Buffer.from(hex, "hex"));
  },
  unread_hex: (hex) => {
    unread = Buffer.concat([unread, Buffer.from(hex, "hex")]);
  },
  request_reset: () => {
    resetRequested = true;
  },
  log: (line) => process.stderr.write(line + "\n"),
});

function run(code) {
  try {
    return mp.runPython(code);
  } finally {
    flushOut();
  }
}

run(`
import sys
sys.path.insert(0, "/sim")
sys.path.insert(0, "/")
`);

if (!board) {
  try {
    run(`import hostio, scenario\nscenario.main(${JSON.stringify(scenario)}, ${JSON.stringify(argsJson)}, hostio)`);
  } catch (err) {
    if (err.name !== "PythonError") throw err;
    process.stderr.write(err.message);
    process.exit(1);
  }
  process.exit(0);
}

// --- a board to reflash ------------------------------------------------------------------

function hardBoot() {
  resetRequested = false;
  run("import sim_board\nsim_board.hard_boot()"); // returns when Ctrl-C stopped the loop
  mp.replInit(); // main.py has ended: MicroPython's REPL takes over
  flushOut();
}

hardBoot();
for (;;) {
  let input = unread.length ? unread : readFd(256);
  unread = Buffer.alloc(0);
  if (process.env.FWSIM_TRACE && input.length) process.stderr.write(`in ${JSON.stringify(input.toString("latin1"))}\n`);
  for (let i = 0; i < input.length; i++) {
    const byte = input[i];
    if (byte === 5 && input[i + 1] === 65 && input[i + 2] === 1) {
      // mpremote asks for raw-paste mode. This port would then read stdin in a blocking
      // call that never returns here, so answer as a board without it does ("R\x00"):
      // mpremote falls back to the plain raw REPL, which rp2 boards also speak.
      writeFd(Buffer.from("R\x00", "latin1"));
      i += 2;
      continue;
    }
    let exit = 0;
    try {
      exit = mp.replProcessChar(byte);
    } finally {
      flushOut();
    }
    if (resetRequested) {
      hardBoot();
      input = Buffer.alloc(0);
      break;
    }
    if (exit) {
      // Ctrl-D: MicroPython's soft reset (the REPL keeps its mode, as on a board).
      pendingOut.push(...Buffer.from("MPY: soft reboot\r\n"));
      run("sim_board.soft_reset()");
      mp.replInit();
      flushOut();
    }
  }
  run("_expiries = sim_board.tick()");
  const expiries = mp.globals.get("_expiries");
  if (expiries) {
    process.stderr.write(JSON.stringify({ watchdog_reset: expiries }) + "\n");
    process.exit(3);
  }
  if (!input.length) sleepMs(2);
}
