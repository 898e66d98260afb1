#!/usr/bin/env node
// The `spillway` command of the npm package: it runs the prebuilt spillway
// binary of this platform, which npm installed as one of the optional
// dependencies (each limited to its os and cpu, so npm installs only the
// one that fits). Nothing is downloaded here or at install time.
//
// The binary gets the arguments, the same stdin, stdout and stderr (file
// descriptors, not pipes through node: an MCP client talks to the binary
// directly) and the signals sent to this process; this process ends the
// way the binary did, with its exit code or its signal.
"use strict";

const { spawn } = require("node:child_process");
const { accessSync, constants } = require("node:fs");
const os = require("node:os");

// process.platform and process.arch name → the package with that binary.
const packages = {
  "linux x64": "@spillway-dev/spillway-linux-x64",
  "linux arm64": "@spillway-dev/spillway-linux-arm64",
  "darwin x64": "@spillway-dev/spillway-darwin-x64",
  "darwin arm64": "@spillway-dev/spillway-darwin-arm64",
};

function fail(message) {
  process.stderr.write(`spillway: ${message}\n`);
  process.exit(1);
}

function binaryPath() {
  const platform = `${process.platform} ${process.arch}`;
  const pkg = packages[platform];
  if (!pkg) {
    fail(
      `there is no prebuilt binary for ${process.platform}/${process.arch} ` +
        `(there are: ${Object.keys(packages).join(", ")}). ` +
        "With Go 1.26 or later, build it instead: " +
        "CGO_ENABLED=0 go install github.com/spillway-dev/spillway/cmd/spillway@latest",
    );
  }
  let bin;
  try {
    bin = require.resolve(`${pkg}/bin/spillway`);
  } catch {
    fail(
      `the package ${pkg}, which holds the binary for this platform, is not installed. ` +
        "npm leaves optional dependencies out with --omit=optional or --no-optional, " +
        "or when the lock file was made on another platform: reinstall without those " +
        `(npm install @spillway-dev/spillway), or add ${pkg} yourself.`,
    );
  }
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    fail(`${bin} is not executable: reinstall the package, or chmod +x it.`);
  }
  return bin;
}

const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit" });

// Signals sent to this process go to the binary; this process waits for
// it to end rather than ending first and leaving it behind.
const forwarded = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
for (const signal of forwarded) {
  process.on(signal, () => child.kill(signal));
}

child.on("error", (err) => fail(`could not start ${child.spawnfile}: ${err.message}`));

child.on("exit", (code, signal) => {
  if (signal) {
    // End by the same signal, so that whoever waits for this process
    // sees what the binary did. A signal node ignores (SIGPIPE) leaves
    // it running: then the shell's convention, 128 plus its number.
    for (const s of forwarded) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    setImmediate(() => process.exit(128 + (os.constants.signals[signal] ?? 0)));
    return;
  }
  process.exit(code);
});
