// Installs the gemstack-lsp wheel the .vsix carries into a private environment (a venv in the
// extension's global storage). No VS Code API here: extension.ts supplies the Python to use
// and shows the progress, and test/install.test.js drives it with node.
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { explainFailure, FailureKind } from "./failure";
import { INSTALL_COMMAND_TITLE, PYTHON_HINT, SERVER_NAME, venvBin, venvServer } from "./serverPath";

/** The oldest Python the server runs on (pyproject.toml's requires-python). */
export const MIN_PYTHON: [number, number] = [3, 11];
/** The file in the private environment that records which wheel was installed. */
export const MARKER = "gemstack-install.json";

export interface Marker {
  wheel: string;
  python: string;
  version: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

/** Runs a program to completion (no shell), collecting its output. */
export type Runner = (command: string, args: string[], onLine?: (line: string) => void) => Promise<RunResult>;

export const run: Runner = (command, args, onLine) =>
  new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let pending = "";
    // Python's own variables are left out: a PYTHONPATH of the user's would make pip see (and
    // skip) packages that are not in the environment it installs into.
    const env: NodeJS.ProcessEnv = { ...process.env, PIP_NO_INPUT: "1" };
    delete env.PYTHONPATH;
    delete env.PYTHONHOME;
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
    const feed = (chunk: Buffer, isErr: boolean) => {
      const text = chunk.toString("utf8");
      if (isErr) stderr += text;
      else stdout += text;
      if (!onLine) return;
      pending += text;
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() || "";
      for (const line of lines) if (line.trim()) onLine(line);
    };
    child.stdout.on("data", (c: Buffer) => feed(c, false));
    child.stderr.on("data", (c: Buffer) => feed(c, true));
    child.on("error", (e) => resolve({ code: null, stdout, stderr, error: e.message }));
    child.on("close", (code) => {
      if (onLine && pending.trim()) onLine(pending);
      resolve({ code, stdout, stderr });
    });
  });

/** The bundled wheel in the extension's `bundled/` folder, if the .vsix carries one. */
export function bundledWheel(extensionDir: string): string | undefined {
  const dir = path.join(extensionDir, "bundled");
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  const wheel = names.filter((n) => /^gemstack_lsp-.+\.whl$/.test(n)).sort().pop();
  return wheel ? path.join(dir, wheel) : undefined;
}

export function readMarker(envDir: string): Marker | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(envDir, MARKER), "utf8"));
    return typeof data?.wheel === "string" ? (data as Marker) : undefined;
  } catch {
    return undefined;
  }
}

/** True when the private environment holds a server installed from another wheel than `wheel`. */
export function needsUpdate(envDir: string, wheel: string | undefined): boolean {
  if (!wheel || !fs.existsSync(venvServer(envDir))) return false;
  const marker = readMarker(envDir);
  return marker === undefined || marker.wheel !== path.basename(wheel);
}

/** The version of a Python interpreter ("3.11") and its full path, or why it cannot be used. */
export async function pythonVersion(
  python: string,
  runner: Runner = run,
): Promise<{ version?: [number, number]; executable?: string; error?: string }> {
  const r = await runner(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2]); print(sys.executable)"]);
  if (r.error || r.code !== 0) return { error: r.error || r.stderr.trim() || `exit ${r.code}` };
  const lines = r.stdout.trim().split(/\r?\n/);
  const m = /^(\d+)\.(\d+)/.exec(lines[0] || "");
  if (!m) return { error: `unexpected output ${JSON.stringify(r.stdout.trim())}` };
  const executable = (lines[1] || "").trim() || undefined;
  return { version: [Number(m[1]), Number(m[2])], executable };
}

function atLeast(v: [number, number], min: [number, number]): boolean {
  return v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
}

export interface Choice {
  python?: string;
  /** The chosen interpreter's full path (sys.executable), when it said. */
  executable?: string;
  version?: string;
  /** What was tried and why each was refused (for the output channel and the message). */
  refused: string[];
}

/**
 * The first candidate that is a Python 3.11+ (candidates: the Python extension's selected
 * interpreter first, when there is one, then python3 and python from PATH). With `accept`, only
 * those versions ("3.12") are taken (the ones a platform .vsix carries libraries for).
 */
export async function choosePython(candidates: string[], runner: Runner = run, accept?: string[]): Promise<Choice> {
  const refused: string[] = [];
  for (const python of [...new Set(candidates.filter(Boolean))]) {
    const { version, executable, error } = await pythonVersion(python, runner);
    if (!version) {
      refused.push(`${python}: ${error}`);
      continue;
    }
    if (!atLeast(version, MIN_PYTHON)) {
      refused.push(`${python}: Python ${version.join(".")} is older than ${MIN_PYTHON.join(".")}`);
      continue;
    }
    if (accept && !accept.includes(version.join("."))) {
      refused.push(`${python}: Python ${version.join(".")} has no bundled libraries (this build carries ${accept.join(", ")})`);
      continue;
    }
    return { python, executable, version: version.join("."), refused };
  }
  return { refused };
}

/** The message shown when no usable Python exists. */
export function noPythonMessage(refused: string[]): string {
  const tried = refused.length ? ` (tried: ${refused.join("; ")})` : "";
  return (
    `Gemstack: the language server needs Python ${MIN_PYTHON.join(".")} or newer, and none was found${tried}. ` +
    `${PYTHON_HINT} (python3 on PATH, or select an interpreter with the Python extension), ` +
    `then run "Gemstack: Install or update the server".`
  );
}

export interface InstallStep {
  message: string;
  command: string;
  args: string[];
}

/** The commands that create (when needed) the environment and install the wheel into it. */
export function installSteps(python: string, envDir: string, wheel: string, exists: boolean): InstallStep[] {
  const envPython = path.join(venvBin(envDir), process.platform === "win32" ? "python.exe" : "python");
  const pip = [envPython, "-m", "pip", "--disable-pip-version-check", "install"];
  const steps: InstallStep[] = [];
  if (!exists) steps.push({ message: "creating the environment", command: python, args: ["-m", "venv", envDir] });
  // The wheel, and its dependencies from PyPI; then the wheel itself again, so the same
  // version rebuilt (a newer extension of the same release) replaces the installed files.
  steps.push({ message: "installing gemstack-lsp and its dependencies", command: pip[0], args: [...pip.slice(1), wheel] });
  if (exists) {
    steps.push({
      message: "updating gemstack-lsp",
      command: pip[0],
      args: [...pip.slice(1), "--force-reinstall", "--no-deps", wheel],
    });
  }
  return steps;
}

export interface InstallOptions {
  python: string;
  pythonVersion: string;
  envDir: string;
  wheel: string;
  /** A line of progress (a step, or pip's output). */
  report?: (message: string) => void;
  /** Every output line, for the output channel. */
  log?: (line: string) => void;
  runner?: Runner;
}

/** What the notification says when a step cannot run offline: the build that needs no network. */
export const OFFLINE_HINT =
  "install the extension's build for your platform (gemstack-lsp-<platform>-<version>.vsix from the release), which needs no network";

/** An install that failed: `message` says what and what to do; `output` is pip's raw report. */
export class InstallError extends Error {
  constructor(
    message: string,
    readonly kind: FailureKind = "other",
    readonly output: string = "",
  ) {
    super(message);
  }
}

/** Creates or updates the private environment; answers the server executable's path. */
export async function installServer(o: InstallOptions): Promise<string> {
  const runner = o.runner || run;
  const exists = fs.existsSync(path.join(venvBin(o.envDir), process.platform === "win32" ? "python.exe" : "python"));
  if (!exists) {
    fs.rmSync(o.envDir, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(o.envDir), { recursive: true });
  }
  for (const step of installSteps(o.python, o.envDir, o.wheel, exists)) {
    o.report?.(step.message);
    o.log?.(`$ ${step.command} ${step.args.join(" ")}`);
    const r = await runner(step.command, step.args, (line) => {
      o.log?.(line);
      if (/^(Collecting|Installing|Successfully)/.test(line)) o.report?.(line.trim());
    });
    if (r.error || r.code !== 0) {
      const output = [r.error || "", r.stdout, r.stderr].filter(Boolean).join("\n");
      const explained = explainFailure(step.message, output, INSTALL_COMMAND_TITLE, OFFLINE_HINT);
      throw new InstallError(explained.message, explained.kind, output);
    }
  }
  const server = venvServer(o.envDir);
  if (!fs.existsSync(server) && !fs.existsSync(server + ".exe")) {
    throw new InstallError(`Gemstack: pip finished but ${SERVER_NAME} is not in ${venvBin(o.envDir)}; run "${INSTALL_COMMAND_TITLE}" again.`);
  }
  const marker: Marker = { wheel: path.basename(o.wheel), python: o.python, version: o.pythonVersion };
  fs.writeFileSync(path.join(o.envDir, MARKER), JSON.stringify(marker, null, 2) + "\n");
  return server;
}
