// Finds the gemstack-lsp executable: the user's setting, then PATH, then the workspace's venv.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export const SERVER_NAME = "gemstack-lsp";
export const INSTALL_HINT = "pip install gemstack-lsp";

export interface Resolution {
  /** The executable to run, when one was found. */
  command?: string;
  /** Every place that was tried, in order, for the error message. */
  tried: string[];
  /** Set when the user's setting points at something that is not an executable. */
  badSetting?: string;
}

function isExecutable(file: string): boolean {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return false;
    if (process.platform === "win32") return true;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function candidates(base: string): string[] {
  if (process.platform !== "win32") return [base];
  const exts = (process.env.PATHEXT || ".EXE;.CMD;.BAT").split(";").filter(Boolean);
  return [base, ...exts.map((ext) => base + ext.toLowerCase())];
}

/** The first executable named `name` on `PATH`, if any. */
export function findOnPath(name: string, envPath = process.env.PATH || ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const file of candidates(path.join(dir, name))) {
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

function expandHome(p: string): string {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(os.homedir(), p.slice(2));
  return p;
}

/**
 * Resolves the server executable.
 *
 * `setting` is gemstack.server.path ("" when unset); `folders` are the workspace folders' paths.
 */
export function resolveServer(setting: string, folders: string[], envPath = process.env.PATH || ""): Resolution {
  const tried: string[] = [];
  const configured = setting.trim();
  if (configured) {
    let file = expandHome(configured);
    if (!path.isAbsolute(file)) {
      if (!file.includes("/") && !file.includes("\\")) {
        // A bare name such as "gemstack-lsp": look it up on PATH.
        const found = findOnPath(file, envPath);
        tried.push(`${file} on PATH`);
        return found ? { command: found, tried } : { tried, badSetting: configured };
      }
      file = path.resolve(folders[0] || process.cwd(), file);
    }
    tried.push(file);
    for (const f of candidates(file)) {
      if (isExecutable(f)) return { command: f, tried };
    }
    return { tried, badSetting: configured };
  }
  tried.push(`${SERVER_NAME} on PATH`);
  const onPath = findOnPath(SERVER_NAME, envPath);
  if (onPath) return { command: onPath, tried };
  for (const folder of folders) {
    const bin = process.platform === "win32" ? path.join(folder, ".venv", "Scripts") : path.join(folder, ".venv", "bin");
    const file = path.join(bin, SERVER_NAME);
    tried.push(file);
    for (const f of candidates(file)) {
      if (isExecutable(f)) return { command: f, tried };
    }
  }
  return { tried };
}
