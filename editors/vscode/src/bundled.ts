// The server a platform .vsix carries ready to run: bundled/libs (gemstack_lsp and every
// dependency, compiled ones per Python version) and bundled/tool/gemstack_launch.py, which puts
// them on sys.path. Started as `python -I gemstack_launch.py serve` with the user's Python: no
// network, no pip, no virtual environment. Also the `gemstack-lsp` launcher written for
// terminals. No VS Code API here (test/bundled.test.js drives it with node).
import * as fs from "fs";
import * as path from "path";
import { SERVER_NAME } from "./serverPath";

export interface Bundle {
  /** The VS Code target the .vsix was built for ("linux-x64", ... or "universal"). */
  target: string;
  /** The Python versions ("3.11") it carries libraries for (none in the universal build). */
  pythons: string[];
  /** bundled/tool/gemstack_launch.py */
  launcher: string;
}

/** The bundle's manifest, when this build of the extension carries libraries for some Python. */
export function readBundle(extensionDir: string): Bundle | undefined {
  const dir = path.join(extensionDir, "bundled");
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "manifest.json"), "utf8"));
    const pythons: string[] = Array.isArray(manifest?.pythons) ? manifest.pythons.filter((p: unknown) => typeof p === "string") : [];
    const launcher = path.join(dir, "tool", "gemstack_launch.py");
    if (!pythons.length || !fs.existsSync(launcher) || !fs.existsSync(path.join(dir, "libs", "common"))) return undefined;
    return { target: String(manifest.target || "?"), pythons, launcher };
  } catch {
    return undefined;
  }
}

/** The command line that runs the CLI (or, with "serve", the server) from the bundle. */
export function bundledCommand(python: string, bundle: Bundle): { command: string; args: string[] } {
  return { command: python, args: ["-I", bundle.launcher] };
}

/** The launcher's file name on this platform. */
export function launcherName(platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? `${SERVER_NAME}.cmd` : SERVER_NAME;
}

function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function cmdQuote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** The launcher script's text: it runs `command args... "$@"`. */
export function launcherText(command: string, args: string[], platform: NodeJS.Platform = process.platform): string {
  if (platform === "win32") {
    return ["@echo off", `${[command, ...args].map(cmdQuote).join(" ")} %*`, ""].join("\r\n");
  }
  return ["#!/bin/sh", "# Written by the Gemstack VS Code extension: the gemstack-lsp it runs.", `exec ${[command, ...args].map(shQuote).join(" ")} "$@"`, ""].join("\n");
}

/**
 * Writes `binDir/gemstack-lsp` (gemstack-lsp.cmd on Windows), which runs the given server command,
 * so that a terminal with `binDir` on PATH has the CLI the editor uses. Only this one file is
 * put in that folder (never a `python`), so prepending it to PATH changes nothing else.
 * Answers the launcher's path.
 */
export function writeLauncher(binDir: string, command: string, args: string[], platform: NodeJS.Platform = process.platform): string {
  fs.mkdirSync(binDir, { recursive: true });
  const file = path.join(binDir, launcherName(platform));
  const text = launcherText(command, args, platform);
  let current: string | undefined;
  try {
    current = fs.readFileSync(file, "utf8");
  } catch {
    current = undefined;
  }
  if (current !== text) {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o755 });
    fs.renameSync(tmp, file);
  }
  return file;
}
