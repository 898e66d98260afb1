#!/usr/bin/env node
// Builds the npm packages from GoReleaser's release archives:
//
//   node npm/build.js [DIST] [OUT]
//
// DIST (default dist/) is what `goreleaser release --snapshot` or a real
// release left: metadata.json gives the version, artifacts.json the
// archives. For each archive a platform package (@spillway-dev/spillway-OS-CPU)
// holds its binary; the main package (@spillway-dev/spillway, from
// npm/spillway/) holds the launcher and names the four as optional
// dependencies of exactly this version. OUT (default DIST/npm) gets the
// package directories and the tarballs of `npm pack`, ready for
// `npm publish` (platform packages first). Nothing is fetched.
"use strict";

const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.resolve(process.argv[2] ?? path.join(root, "dist"));
const out = path.resolve(process.argv[3] ?? path.join(dist, "npm"));

// Go's names → node's (process.platform, process.arch).
const nodeOS = { linux: "linux", darwin: "darwin" };
const nodeCPU = { amd64: "x64", arm64: "arm64" };

function readJSON(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`${file}: ${err.message} (run goreleaser release --snapshot --clean first)`);
  }
}

function writeJSON(file, value) {
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + "\n");
}

function pack(dir) {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
  }).trim();
  return path.join(out, name.split("\n").pop());
}

const { version } = readJSON(path.join(dist, "metadata.json"));
const main = readJSON(path.join(root, "npm", "spillway", "package.json"));
const archives = readJSON(path.join(dist, "artifacts.json")).filter(
  (a) => a.type === "Archive" && nodeOS[a.goos] && nodeCPU[a.goarch],
);
const wanted = Object.keys(main.optionalDependencies);

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const tarballs = [];
for (const a of archives) {
  const os = nodeOS[a.goos];
  const cpu = nodeCPU[a.goarch];
  const name = `${main.name}-${os}-${cpu}`;
  if (!wanted.includes(name)) {
    throw new Error(`${a.path} is for ${name}, which npm/spillway/package.json does not list`);
  }
  const dir = path.join(out, `${os}-${cpu}`);
  const unpacked = path.join(dir, "archive");
  fs.mkdirSync(unpacked, { recursive: true });
  execFileSync("tar", ["-xzf", path.resolve(root, a.path), "-C", unpacked]);
  const wrapped = a.extra?.WrappedIn ?? "";
  fs.mkdirSync(path.join(dir, "bin"));
  fs.renameSync(path.join(unpacked, wrapped, "spillway"), path.join(dir, "bin", "spillway"));
  fs.chmodSync(path.join(dir, "bin", "spillway"), 0o755);
  fs.rmSync(unpacked, { recursive: true });
  fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
  fs.writeFileSync(
    path.join(dir, "README.md"),
    `# ${name}\n\nThe spillway binary for ${a.goos}/${a.goarch}. Install ${main.name}, ` +
      `which runs it; see ${main.homepage}.\n`,
  );
  writeJSON(path.join(dir, "package.json"), {
    name,
    version,
    description: `The spillway binary for ${a.goos}/${a.goarch}, run by ${main.name}`,
    homepage: main.homepage,
    repository: main.repository,
    license: main.license,
    os: [os],
    cpu: [cpu],
    files: ["bin/spillway"],
    // Yarn's Plug'n'Play must unpack it: a binary cannot run from a zip.
    preferUnplugged: true,
  });
  tarballs.push(pack(dir));
}
const missing = wanted.filter((n) => !archives.some((a) => n === `${main.name}-${nodeOS[a.goos]}-${nodeCPU[a.goarch]}`));
if (missing.length > 0) {
  throw new Error(`${dist} has no archive for ${missing.join(", ")}`);
}

const dir = path.join(out, "spillway");
fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
fs.copyFileSync(path.join(root, "npm", "spillway", "bin", "spillway.js"), path.join(dir, "bin", "spillway.js"));
fs.chmodSync(path.join(dir, "bin", "spillway.js"), 0o755);
fs.copyFileSync(path.join(root, "npm", "spillway", "README.md"), path.join(dir, "README.md"));
fs.copyFileSync(path.join(root, "LICENSE"), path.join(dir, "LICENSE"));
main.version = version;
for (const dep of wanted) main.optionalDependencies[dep] = version;
writeJSON(path.join(dir, "package.json"), main);
tarballs.push(pack(dir));

for (const t of tarballs) console.log(t);
