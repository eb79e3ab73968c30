"""Each game's own tests, one folder a game (as controller/games/<key>/)."""
