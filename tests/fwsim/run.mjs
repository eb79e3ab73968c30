// Runs a scripted reader board (tests/fwsim/scenario.py) under MicroPython's WebAssembly port.
//
//   node run.mjs <micropython.mjs> <firmware dir> <scenario> <json args> [fd]
//
// The firmware's *.py go to /firmware on MicroPython's filesystem (and boot.py also
// to /boot.py, as on a board), this folder's *.py to /sim. The optional fd is the
// master side of a pseudo-terminal that the host test opened: the board's USB serial.
// The heap is the Pico's (about 190 KB free after boot), so a firmware that needs more
// memory than a Pico has fails here too. Exit status: 0 if the scenario finished,
// 1 with MicroPython's traceback on stderr if it raised.
import fs from "fs";
import path from "path";
import url from "url";

const [mjs, firmwareDir, scenario, argsJson, fdArg] = process.argv.slice(2);
const { loadMicroPython } = await import(url.pathToFileURL(path.resolve(mjs)).href);
const here = path.dirname(url.fileURLToPath(import.meta.url));
const fd = fdArg === undefined ? -1 : Number(fdArg);
const sleeper = new Int32Array(new SharedArrayBuffer(4));

const mp = await loadMicroPython({
  heapsize: 192 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copyTree(dir, target) {
  mp.FS.mkdir(target);
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py")) mp.FS.writeFile(`${target}/${name}`, fs.readFileSync(path.join(dir, name)));
  }
}
copyTree(firmwareDir, "/firmware");
copyTree(here, "/sim");
if (fs.existsSync(path.join(firmwareDir, "boot.py"))) {
  mp.FS.writeFile("/boot.py", fs.readFileSync(path.join(firmwareDir, "boot.py")));
}

mp.registerJsModule("hostio", {
  now_us: () => Math.floor(performance.now() * 1000),
  sleep_us: (us) => Atomics.wait(sleeper, 0, 0, us / 1000),
  read_hex: (limit) => {
    if (fd < 0) return "";
    const buf = Buffer.alloc(limit);
    try {
      return buf.subarray(0, fs.readSync(fd, buf, 0, limit, null)).toString("hex");
    } catch (err) {
      if (err.code === "EAGAIN" || err.code === "EIO") return "";
      throw err;
    }
  },
  write_hex: (hex) => {
    if (fd < 0) return hex.length / 2;
    try {
      return fs.writeSync(fd, Buffer.from(hex, "hex"));
    } catch (err) {
      if (err.code === "EAGAIN" || err.code === "EIO") return 0; // nobody reading: a stalled port
      throw err;
    }
  },
});

try {
  mp.runPython(`
import sys
sys.path.insert(0, "/sim")
sys.path.insert(0, "/")
import hostio, scenario
scenario.main(${JSON.stringify(scenario)}, ${JSON.stringify(argsJson)}, hostio)
`);
} catch (err) {
  if (err.name !== "PythonError") throw err;
  process.stderr.write(err.message);
  process.exit(1);
}
