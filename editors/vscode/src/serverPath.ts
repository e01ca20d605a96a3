// Finds the gemstack-lsp executable. In order: the user's setting, the extension's private
// environment, PATH, the workspace's .venv, then pipx's and uv's tool folders.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export const SERVER_NAME = "gemstack-lsp";
/** The palette command that installs the bundled server into the private environment. */
export const INSTALL_COMMAND = "gemstack.installServer";
export const INSTALL_COMMAND_TITLE = "Gemstack: Install or update the server";
/** The install from a clone of the repository (the package is not on PyPI). */
export const FROM_CLONE_HINT = "pipx install /path/to/gemstack-lsp";
/** What the first-run message names when no usable Python is found. */
export const PYTHON_HINT = "Install Python 3.11+";

/** Where the executable came from, for the output channel. */
export type Source = "setting" | "private" | "path" | "venv" | "pipx" | "uv" | "user-bin";

export interface Resolution {
  /** The executable to run, when one was found. */
  command?: string;
  /** Which place it came from. */
  source?: Source;
  /** Every place that was tried, in order, for the error message. */
  tried: string[];
  /** Set when the user's setting points at something that is not an executable. */
  badSetting?: string;
}

export interface LookupOptions {
  /** The extension's private environment (a venv folder), if it has one. */
  privateEnv?: string;
  /** The home folder (default: os.homedir()). */
  home?: string;
  /** Environment variables that move pipx's and uv's folders (default: process.env). */
  env?: Record<string, string | undefined>;
  /** The platform (default: process.platform). */
  platform?: NodeJS.Platform;
  /**
   * False in a workspace the user has not trusted (Restricted Mode): a server inside the
   * workspace (its .venv) is a program the repository ships, so it is not looked for.
   */
  trusted?: boolean;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return false;
    if (platform === "win32") return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(base: string, platform: NodeJS.Platform): string[] {
  if (platform !== "win32") return [base];
  const exts = (process.env.PATHEXT || ".EXE;.CMD;.BAT").split(";").filter(Boolean);
  return [base, ...exts.map((ext) => base + ext.toLowerCase())];
}

function firstExecutable(file: string, platform: NodeJS.Platform): string | undefined {
  return candidates(file, platform).find((f) => isExecutable(f, platform));
}

/** The first executable named `name` on `PATH`, if any. */
export function findOnPath(name: string, envPath = process.env.PATH || "", platform = process.platform): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const found = firstExecutable(path.join(dir, name), platform);
    if (found) return found;
  }
  return undefined;
}

function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(home, p.slice(2));
  return p;
}

/** The folder of a venv's executables. */
export function venvBin(venv: string, platform: NodeJS.Platform = process.platform): string {
  return platform === "win32" ? path.join(venv, "Scripts") : path.join(venv, "bin");
}

/** The server executable inside a venv. */
export function venvServer(venv: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(venvBin(venv, platform), SERVER_NAME);
}

/**
 * The folders where pipx and uv put an installed tool, in the order they are tried:
 * pipx's venv of gemstack-lsp, the user's bin folder both link into, uv's tool venv.
 */
export function toolFolders(home: string, env: Record<string, string | undefined>): { source: Source; dir: string }[] {
  const pipxHome = env.PIPX_HOME || path.join(home, ".local", "pipx");
  const userBin = env.PIPX_BIN_DIR || path.join(home, ".local", "bin");
  const dataHome = env.XDG_DATA_HOME || path.join(home, ".local", "share");
  const uvTools = env.UV_TOOL_DIR || path.join(dataHome, "uv", "tools");
  const out = [
    { source: "pipx" as Source, dir: path.join(pipxHome, "venvs", SERVER_NAME, "bin") },
    { source: "user-bin" as Source, dir: userBin },
    { source: "uv" as Source, dir: path.join(uvTools, SERVER_NAME, "bin") },
  ];
  if (env.UV_TOOL_BIN_DIR && env.UV_TOOL_BIN_DIR !== userBin) out.push({ source: "uv", dir: env.UV_TOOL_BIN_DIR });
  return out;
}

/**
 * Resolves the server executable.
 *
 * `setting` is gemstack.server.path ("" when unset); `folders` are the workspace folders' paths.
 */
export function resolveServer(
  setting: string,
  folders: string[],
  envPath = process.env.PATH || "",
  options: LookupOptions = {},
): Resolution {
  const platform = options.platform || process.platform;
  const home = options.home || os.homedir();
  const env = options.env || process.env;
  const tried: string[] = [];
  const configured = setting.trim();
  if (configured) {
    let file = expandHome(configured, home);
    if (!path.isAbsolute(file)) {
      if (!file.includes("/") && !file.includes("\\")) {
        // A bare name such as "gemstack-lsp": look it up on PATH.
        const found = findOnPath(file, envPath, platform);
        tried.push(`${file} on PATH`);
        return found ? { command: found, source: "setting", tried } : { tried, badSetting: configured };
      }
      file = path.resolve(folders[0] || process.cwd(), file);
    }
    tried.push(file);
    const found = firstExecutable(file, platform);
    return found ? { command: found, source: "setting", tried } : { tried, badSetting: configured };
  }
  const places: { source: Source; file: string }[] = [];
  if (options.privateEnv) places.push({ source: "private", file: venvServer(options.privateEnv, platform) });
  const look = (source: Source, file: string): Resolution | undefined => {
    tried.push(file);
    const found = firstExecutable(file, platform);
    return found ? { command: found, source, tried } : undefined;
  };
  for (const p of places) {
    const hit = look(p.source, p.file);
    if (hit) return hit;
  }
  tried.push(`${SERVER_NAME} on PATH`);
  const onPath = findOnPath(SERVER_NAME, envPath, platform);
  if (onPath) return { command: onPath, source: "path", tried };
  for (const folder of options.trusted === false ? [] : folders) {
    const hit = look("venv", venvServer(path.join(folder, ".venv"), platform));
    if (hit) return hit;
  }
  for (const { source, dir } of toolFolders(home, env)) {
    const hit = look(source, path.join(dir, SERVER_NAME));
    if (hit) return hit;
  }
  return { tried };
}

/** A shell command that installs the bundled wheel with pipx (whose folder the lookup tries). */
export function pipxInstallCommand(wheel: string): string {
  return `pipx install --force "${wheel}"`;
}
