// The Gemstack extension: starts `gemstack-lsp serve` and wires it to VS Code.
import * as path from "path";
import * as vscode from "vscode";
import {
  ConfigurationParams,
  DocumentSelector,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
} from "vscode-languageclient/node";
import { CAPSULE_STATE_REQUEST, CapsuleState, capsuleStatusView } from "./status";
import { bundledCommand, readBundle, writeLauncher } from "./bundled";
import { InstallError, bundledWheel, choosePython, installServer, needsUpdate, noPythonMessage, run } from "./install";
import {
  ARTIFACT_GLOB,
  CONTEXT_KEY,
  MAX_FILES,
  NOT_GEMSTACK,
  SPEC_GLOB,
  anyHasBlock,
  hasGemstackBlock,
  isGemstackFolder,
} from "./workspace";
import {
  FROM_CLONE_HINT,
  INSTALL_COMMAND,
  INSTALL_COMMAND_TITLE,
  SERVER_NAME,
  pipxInstallCommand,
  resolveServer,
} from "./serverPath";

/** Settings the server reads (section "gemstack"); the client-only keys are left out. */
export const SERVER_SETTING_KEYS = [
  "environment",
  "debounceMs",
  "maxLedgerAgeDays",
  "diagnostics",
  "hover",
  "codeActions",
  "codeLens",
  "completion",
  "navigation",
  "logLevel",
] as const;

/** Files the server analyses: Markdown under specs/ and the JSON artifacts. */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: "file", language: "markdown", pattern: "**/specs/**/*.md" },
  { scheme: "file", pattern: "**/context-capsule.json" },
  { scheme: "file", pattern: "**/cost-ledger.json" },
  { scheme: "file", pattern: "**/.gemstack/*.json" },
];

const WATCHED = "**/{specs/**/*.md,context-capsule.json,cost-ledger.json,.gemstack/*.json}";

let client: LanguageClient | undefined;
/** Whether the workspace is a Gemstack repository (set by refreshWorkspaceKind). */
let gemstackWorkspace = false;
let output: vscode.OutputChannel | undefined;
/** The start (or install, then start) under way, so two never run at once. */
let starting: Promise<void> | undefined;
let installing = false;
/** The file watcher of the running client (one per start, disposed with it). */
let watcher: vscode.FileSystemWatcher | undefined;

// Only the values the user set (folder, then workspace, then user settings): defaults stay
// with the server, so a repository's .gemstack/lsp.toml is not overridden by package.json's.
function serverSettings(scope?: vscode.ConfigurationScope): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("gemstack", scope);
  const settings: Record<string, unknown> = {};
  for (const key of SERVER_SETTING_KEYS) {
    const seen = config.inspect(key);
    const value = seen?.workspaceFolderValue ?? seen?.workspaceValue ?? seen?.globalValue;
    if (value !== undefined) settings[key] = value;
  }
  return settings;
}

function folderPaths(): string[] {
  return (vscode.workspace.workspaceFolders || []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}

/** The private environment: a venv in the extension's global storage. */
function privateEnv(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, "server");
}

/** The folder of the `gemstack-lsp` launcher for terminals (it holds that one file only). */
function launcherDir(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, "bin");
}

/** The Pythons tried after the Python extension's choice. */
const PYTHON_CANDIDATES = process.platform === "win32" ? ["python", "python3"] : ["python3", "python"];

/** The launcher the last start wrote (the gemstack-lsp a terminal gets), if any. */
let cliPath: string | undefined;

/**
 * The server this build carries ready to run (bundled/libs), with the first Python the user has
 * that it carries libraries for: the Python extension's choice first. No network, no pip.
 */
async function bundledServer(
  context: vscode.ExtensionContext,
): Promise<{ command: string; args: string[]; version: string } | undefined> {
  const bundle = readBundle(context.extensionPath);
  if (!bundle) return undefined;
  const fromExtension = await pythonFromExtension();
  const choice = await choosePython([fromExtension || "", ...PYTHON_CANDIDATES], run, bundle.pythons);
  for (const line of choice.refused) output?.appendLine(`Gemstack: Python not used for the bundled server: ${line}`);
  if (!choice.python || !choice.version) return undefined;
  const { command, args } = bundledCommand(choice.executable || choice.python, bundle);
  return { command, args, version: choice.version };
}

/**
 * Writes the `gemstack-lsp` launcher for the server that runs, and puts its folder first on PATH
 * in VS Code's terminals, so the CLI the docs show works there as written.
 */
function publishCli(context: vscode.ExtensionContext, command: string, args: string[]): void {
  try {
    const dir = launcherDir(context);
    cliPath = writeLauncher(dir, command, args);
    const env = context.environmentVariableCollection;
    env.description = "Puts the gemstack-lsp that the Gemstack extension runs on PATH.";
    env.prepend("PATH", dir + path.delimiter);
    output?.appendLine(`Gemstack: the CLI is ${cliPath} (on PATH in new terminals: "Gemstack: Open a Terminal with gemstack-lsp")`);
  } catch (error) {
    cliPath = undefined;
    output?.appendLine(`Gemstack: could not write the gemstack-lsp launcher: ${String(error)}`);
  }
}

function resolve(context: vscode.ExtensionContext) {
  const setting = vscode.workspace.getConfiguration("gemstack").get<string>("server.path", "");
  return resolveServer(setting, folderPaths(), process.env.PATH || "", {
    privateEnv: privateEnv(context),
    trusted: vscode.workspace.isTrusted,
  });
}

async function openServerSetting(): Promise<void> {
  const query = "@id:gemstack.server.path";
  output?.appendLine(`Gemstack: opening the setting (remote: ${vscode.env.remoteName ?? "none"})`);
  // The setting is machine-overridable: in a remote window (code-server, SSH, containers) it
  // lives in the Remote tab, and the User tab says "No Settings Found".
  if (vscode.env.remoteName) {
    try {
      await vscode.commands.executeCommand("workbench.action.openRemoteSettings", { query });
      return;
    } catch (error) {
      output?.appendLine(`Gemstack: the remote settings did not open: ${String(error)}`);
    }
  }
  await vscode.commands.executeCommand("workbench.action.openSettings", query);
}

/** Tells the user, without waiting for an answer (activation and commands never block on it). */
function reportMissingServer(context: vscode.ExtensionContext, tried: string[], why?: string): void {
  const message =
    why ??
    `Gemstack: the language server "${SERVER_NAME}" was not found (looked in: ${tried.join("; ")}). ` +
      `Run "${INSTALL_COMMAND_TITLE}", install it from a clone with "${FROM_CLONE_HINT}", or set gemstack.server.path.`;
  output?.appendLine(message);
  offerFixes(context, message);
}

/** Shows `message` with the documented buttons: Install or Update the Server, Copy Install Command, Open Settings. */
function offerFixes(context: vscode.ExtensionContext, message: string): void {
  const wheel = bundledWheel(context.extensionPath);
  const copy = wheel ? pipxInstallCommand(wheel) : FROM_CLONE_HINT;
  void vscode.window.showErrorMessage(message, "Install or Update the Server", "Copy Install Command", "Open Settings").then(
    async (choice) => {
      if (choice === "Install or Update the Server") {
        await vscode.commands.executeCommand(INSTALL_COMMAND);
      } else if (choice === "Copy Install Command") {
        await vscode.env.clipboard.writeText(copy);
        void vscode.window.showInformationMessage(`Gemstack: copied "${copy}"`);
      } else if (choice === "Open Settings") {
        await openServerSetting();
      }
    },
  );
}

function reportBadSetting(value: string): void {
  const message =
    `Gemstack: gemstack.server.path is "${value}", which is not an executable. ` +
    `Fix the setting, or clear it to use the server the extension installs (or ${SERVER_NAME} from PATH).`;
  output?.appendLine(message);
  void vscode.window.showErrorMessage(message, "Open Settings").then((c) => c && openServerSetting());
}

/** True when `file` lies inside one of the workspace folders. */
function insideWorkspace(file: string): boolean {
  const real = path.resolve(file);
  return folderPaths().some((folder) => real === folder || real.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep));
}

/** The Python the Python extension selected for the workspace, if that extension is installed. */
async function pythonFromExtension(): Promise<string | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) return undefined;
  try {
    const api = (ext.isActive ? ext.exports : await ext.activate()) as any;
    const environments = api?.environments;
    if (!environments?.getActiveEnvironmentPath) return undefined;
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const active = environments.getActiveEnvironmentPath(resource);
    const resolved = active ? await environments.resolveEnvironment(active) : undefined;
    const executable: string | undefined = resolved?.executable?.uri?.fsPath ?? active?.path;
    if (executable && !vscode.workspace.isTrusted && insideWorkspace(executable)) {
      // Restricted Mode: a Python inside the workspace (its .venv) is a program the repository ships.
      output?.appendLine(`Gemstack: not using ${executable}: it lies in a workspace that is not trusted`);
      return undefined;
    }
    return executable || undefined;
  } catch (error) {
    output?.appendLine(`Gemstack: the Python extension did not name an interpreter: ${String(error)}`);
    return undefined;
  }
}

/**
 * Installs (or updates) the bundled server into the private environment, with a progress
 * notification. Answers the server's path, or undefined after telling the user why not.
 */
async function installPrivateServer(
  context: vscode.ExtensionContext,
  reason: string,
  tried: string[],
): Promise<string | undefined> {
  const wheel = bundledWheel(context.extensionPath);
  if (!wheel) {
    reportMissingServer(
      context,
      tried,
      `Gemstack: the language server "${SERVER_NAME}" was not found (looked in: ${tried.join("; ") || "nowhere"}), ` +
        `and this build of the extension carries no server to install. Install it from a clone with "${FROM_CLONE_HINT}" ` +
        `and set gemstack.server.path if it is not on PATH.`,
    );
    return undefined;
  }
  installing = true;
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Gemstack: installing the language server", cancellable: false },
      async (progress) => {
        progress.report({ message: "finding Python" });
        const fromExtension = await pythonFromExtension();
        const candidates = [fromExtension || "", ...PYTHON_CANDIDATES];
        const choice = await choosePython(candidates);
        for (const line of choice.refused) output?.appendLine(`Gemstack: Python refused: ${line}`);
        if (!choice.python || !choice.version) {
          // The refusals are in the output channel; the notification stays short.
          const message = noPythonMessage([]);
          output?.appendLine(noPythonMessage(choice.refused));
          offerFixes(context, message);
          return undefined;
        }
        const envDir = privateEnv(context);
        output?.appendLine(`Gemstack: ${reason}: installing ${path.basename(wheel)} into ${envDir} with ${choice.python} (Python ${choice.version})`);
        try {
          const server = await installServer({
            python: choice.python,
            pythonVersion: choice.version,
            envDir,
            wheel,
            report: (message) => progress.report({ message }),
            log: (line) => output?.appendLine(line),
          });
          output?.appendLine(`Gemstack: installed ${server}`);
          return server;
        } catch (error) {
          // pip's raw report goes to the output channel; the notification says what and what to do.
          if (error instanceof InstallError) {
            if (error.output) output?.appendLine(error.output);
            output?.appendLine(`${error.message} (${error.kind})`);
            offerFixes(context, error.message);
          } else {
            const message = `Gemstack: installing the language server failed: ${String(error)}. Run "${INSTALL_COMMAND_TITLE}" to try again.`;
            output?.appendLine(message);
            offerFixes(context, message);
          }
          return undefined;
        }
      },
    );
  } finally {
    installing = false;
  }
}

/** Starts the server, installing it first when nothing is found (never waits on a message). */
function ensureStarted(context: vscode.ExtensionContext, forceInstall = false): Promise<void> {
  const previous = starting ?? Promise.resolve();
  const next = previous.then(() => startClient(context, forceInstall)).catch((error) => {
    output?.appendLine(`Gemstack: ${String(error)}`);
  });
  starting = next;
  void next.finally(() => {
    if (starting === next) starting = undefined;
  });
  return next;
}

async function startClient(context: vscode.ExtensionContext, forceInstall: boolean): Promise<void> {
  await stopClient();
  let resolution = resolve(context);
  if (resolution.badSetting) {
    reportBadSetting(resolution.badSetting);
    return;
  }
  let server: { command: string; args: string[]; from: string } | undefined;
  if (resolution.source !== "setting") {
    const bundled = await bundledServer(context);
    if (bundled) {
      server = { command: bundled.command, args: bundled.args, from: `the extension's bundled libraries, Python ${bundled.version}` };
      if (forceInstall) {
        void vscode.window.showInformationMessage(
          `Gemstack: nothing to install: the server runs from the libraries this extension carries, with ${bundled.command} (Python ${bundled.version}).`,
        );
      }
    }
  }
  if (!server) {
    const wheel = bundledWheel(context.extensionPath);
    const outdated = resolution.source === "private" && needsUpdate(privateEnv(context), wheel);
    if (forceInstall || !resolution.command || outdated) {
      const reason = forceInstall ? "on request" : outdated ? "the extension carries another server build" : "no server found";
      const installed = await installPrivateServer(context, reason, resolution.tried);
      if (installed === undefined && !resolution.command) return; // the user was told why
      resolution = resolve(context);
      if (forceInstall && installed && resolution.source !== "private") {
        void vscode.window.showInformationMessage(
          `Gemstack: the server was installed in the private environment, but ${resolution.command} (${resolution.source}) comes first in the lookup and is used.`,
        );
      }
    }
    if (!resolution.command) {
      reportMissingServer(context, resolution.tried);
      return;
    }
    server = { command: resolution.command, args: [], from: resolution.source || "?" };
  }
  output?.appendLine(`Gemstack: starting ${[server.command, ...server.args].join(" ")} serve (from ${server.from})`);
  publishCli(context, server.command, server.args);
  const folders = folderPaths();
  const serverOptions: ServerOptions = {
    command: server.command,
    args: [...server.args, "serve"],
    options: { cwd: folders[0] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // In Restricted Mode the server runs no git and refuses the commands that write files.
    initializationOptions: { ...serverSettings(), trusted: vscode.workspace.isTrusted },
    synchronize: {
      configurationSection: "gemstack",
      fileEvents: (watcher = vscode.workspace.createFileSystemWatcher(WATCHED)),
    },
    middleware: {
      workspace: {
        // The server asks for section "gemstack": answer with its own keys only.
        configuration: async (params: ConfigurationParams, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((value, i) => {
            const item = params.items[i];
            if (item?.section !== "gemstack" || !value || typeof value !== "object") return value;
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            return serverSettings(scope);
          });
        },
      },
    },
  };
  const started = new LanguageClient("gemstack", "Gemstack", serverOptions, clientOptions);
  client = started;
  try {
    await started.start();
    output?.appendLine(`Gemstack: the server is running (${Date.now() - activatedAt} ms after activation)`);
    status?.refresh();
  } catch (error) {
    const message = `Gemstack: the language server failed to start (${server.command} serve): ${String(error)}`;
    output?.appendLine(message);
    void vscode.window.showErrorMessage(message, "Show Output").then((c) => c && output?.show());
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  watcher?.dispose();
  watcher = undefined;
  status?.refresh();
  if (!running) return;
  try {
    await running.stop();
  } catch (error) {
    // A client that never started (or whose server died) has nothing left to stop.
    output?.appendLine(`Gemstack: stopping the language server: ${String(error)}`);
  }
}

/** The feature directory (specs/<feature>) of a file, if it lies in one. */
export function featureDirOf(file: string): string | undefined {
  const parts = file.split(path.sep);
  for (let i = parts.length - 2; i >= 1; i--) {
    if (parts[i - 1] === "specs" && i < parts.length - 1) return parts.slice(0, i + 1).join(path.sep);
  }
  return undefined;
}

/** The server's argument for a feature: the folder's file URI (as in its own code actions). */
function featureUri(dir: string): string {
  return dir.startsWith("file:") ? dir : vscode.Uri.file(dir).toString();
}

async function pickFeature(): Promise<string | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.scheme === "file") {
    const dir = featureDirOf(editor.document.uri.fsPath);
    if (dir) return dir;
  }
  const specs = await vscode.workspace.findFiles("**/specs/*/spec.md", "**/node_modules/**", 200);
  const dirs = [...new Set(specs.map((u) => path.dirname(u.fsPath)))].sort();
  if (dirs.length === 1) return dirs[0];
  if (dirs.length === 0) {
    void vscode.window.showWarningMessage("Gemstack: no feature (specs/<feature>/spec.md) in this workspace.");
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    dirs.map((d) => ({ label: path.basename(d), description: vscode.workspace.asRelativePath(d), dir: d })),
    { placeHolder: "Which feature?" },
  );
  return picked?.dir;
}

function describe(result: unknown): string {
  if (result === null || result === undefined) return "done";
  if (typeof result === "string") return result;
  if (typeof result === "object") {
    const r = result as Record<string, unknown>;
    for (const key of ["message", "summary", "state"]) {
      if (typeof r[key] === "string") return r[key] as string;
    }
  }
  const text = JSON.stringify(result);
  return text.length > 300 ? text.slice(0, 297) + "..." : text;
}

/**
 * Runs a server command through workspace/executeCommand. The server itself tells the user
 * what happened (window/showMessage: what was written, the state); the answer goes to the
 * output channel, and only a failure of the request is shown here.
 */
async function runServerCommand(command: string, args: unknown[], title: string): Promise<void> {
  if (!client || !client.isRunning()) {
    const message = installing
      ? "Gemstack: the language server is still being installed; try again in a moment."
      : `Gemstack: the language server is not running. Run "${INSTALL_COMMAND_TITLE}", or set gemstack.server.path and run "Gemstack: Restart Language Server".`;
    void vscode.window.showErrorMessage(message, ...(installing ? [] : ["Install or Update the Server"])).then(
      (c) => c && vscode.commands.executeCommand(INSTALL_COMMAND),
    );
    return;
  }
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Gemstack: ${title}` },
      () => client!.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    );
    output?.appendLine(`Gemstack: ${title}: ${describe(result)}`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Gemstack: ${title} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    status?.refresh();
  }
}

/** The status bar item: the capsule state of the active editor's feature, from the server. */
class CapsuleStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem("gemstack.capsuleState", vscode.StatusBarAlignment.Left, 20);
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor() {
    this.item.name = "Gemstack Capsule State";
  }

  /** How many times an unanswered question is asked again (once a second) before giving up
   * until the next editor or diagnostics change. */
  private static readonly RETRIES = 20;
  private retries = 0;

  /** Asks again soon (several events in a row ask once). */
  refresh(): void {
    this.retries = 0;
    this.schedule(150);
  }

  private schedule(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), delay);
  }

  /** The server was not running yet, or had no answer: ask again shortly, a bounded number of
   * times (an item hidden while the server starts would otherwise stay hidden until the next
   * event, and the diagnostics may all have arrived already). */
  private retryLater(): void {
    if (this.retries < CapsuleStatus.RETRIES) {
      this.retries += 1;
      this.schedule(1000);
    }
  }

  private async update(): Promise<void> {
    const generation = ++this.generation;
    const editor = vscode.window.activeTextEditor;
    const running = client;
    if (!editor || editor.document.uri.scheme !== "file" || !featureDirOf(editor.document.uri.fsPath)) {
      this.item.hide();
      return;
    }
    if (!running?.isRunning()) {
      this.item.hide();
      this.retryLater();
      return;
    }
    let state: CapsuleState | null = null;
    try {
      state = await running.sendRequest<CapsuleState | null>(CAPSULE_STATE_REQUEST, {
        textDocument: { uri: editor.document.uri.toString() },
      });
    } catch (error) {
      output?.appendLine(`Gemstack: ${CAPSULE_STATE_REQUEST} failed: ${String(error)}`);
    }
    if (generation !== this.generation) return; // a newer question is under way
    if (!state) {
      this.item.hide();
      this.retryLater();
      return;
    }
    const view = capsuleStatusView(state);
    this.item.text = view.text;
    this.item.tooltip = view.tooltip;
    this.item.backgroundColor = view.alert ? new vscode.ThemeColor(view.alert) : undefined;
    this.item.command = { title: view.command, command: view.command, arguments: [vscode.Uri.parse(state.featureUri).fsPath] };
    this.item.accessibilityInformation = { label: `Gemstack capsule ${state.state} for ${state.feature}` };
    this.item.show();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.item.dispose();
  }
}

let status: CapsuleStatus | undefined;
/** When activate() ran, for the timings the output channel reports. */
let activatedAt = Date.now();
let firstDiagnosticsLogged = false;

/** Logs once how long after activation the first Gemstack diagnostics arrived. */
function noteFirstDiagnostics(): void {
  if (firstDiagnosticsLogged || !client) return;
  const ours = vscode.languages.getDiagnostics().some(([, list]) => list.some((d) => d.source === "gemstack"));
  if (!ours) return;
  firstDiagnosticsLogged = true;
  output?.appendLine(`Gemstack: first diagnostics ${Date.now() - activatedAt} ms after activation (at ${Date.now()} ms since the epoch)`);
}

function noCliYet(): void {
  const message = installing
    ? "Gemstack: the language server is still being installed; try again in a moment."
    : `Gemstack: no gemstack-lsp yet: the server has not started. Run "${INSTALL_COMMAND_TITLE}" (the output channel says why it did not start).`;
  void vscode.window.showErrorMessage(message, ...(installing ? [] : ["Show Output"])).then((c) => c && output?.show());
}

/** A terminal whose PATH starts with the launcher's folder, so `gemstack-lsp` is the editor's. */
function openCliTerminal(): void {
  if (!cliPath) return noCliYet();
  const dir = path.dirname(cliPath);
  const terminal = vscode.window.createTerminal({
    name: "gemstack-lsp",
    cwd: folderPaths()[0],
    env: { PATH: dir + path.delimiter + (process.env.PATH || "") },
  });
  terminal.show();
  terminal.sendText("gemstack-lsp --version");
}

async function copyCliPath(): Promise<void> {
  if (!cliPath) return noCliYet();
  await vscode.env.clipboard.writeText(cliPath);
  void vscode.window.showInformationMessage(
    `Gemstack: copied ${cliPath}, the gemstack-lsp the editor runs (its folder is on PATH in VS Code's terminals).`,
  );
}

/**
 * Whether the workspace is a Gemstack repository: a folder with `.gemstack/` or a Gemstack block
 * in specs/<feature>/*.md (at a folder's top, or deeper as the glob finds it), or an open
 * Markdown document with a block (unsaved text counts).
 */
async function detectGemstackWorkspace(): Promise<boolean> {
  const folders = folderPaths();
  for (const folder of folders) {
    if (await isGemstackFolder(folder)) return true;
  }
  if (folders.length > 0) {
    const nested = await vscode.workspace.findFiles("**/.gemstack/*", "**/node_modules/**", 1);
    if (nested.length > 0) return true;
    const artifacts = await vscode.workspace.findFiles(ARTIFACT_GLOB, "**/node_modules/**", 1);
    if (artifacts.length > 0) return true;
    const specs = await vscode.workspace.findFiles(SPEC_GLOB, "**/node_modules/**", MAX_FILES);
    if (await anyHasBlock(specs.filter((u) => u.scheme === "file").map((u) => u.fsPath))) return true;
  }
  return vscode.workspace.textDocuments.some((d) => d.languageId === "markdown" && hasGemstackBlock(d.getText()));
}

/** Detects the workspace's kind again and sets the context key; answers it. */
async function refreshWorkspaceKind(): Promise<boolean> {
  const now = await detectGemstackWorkspace();
  gemstackWorkspace = now;
  await vscode.commands.executeCommand("setContext", CONTEXT_KEY, now);
  return now;
}

/** Starts the server once the workspace turns out to be a Gemstack repository (a first block saved, `.gemstack/` created, a folder added). */
async function startIfGemstack(context: vscode.ExtensionContext): Promise<void> {
  if (gemstackWorkspace || !(await refreshWorkspaceKind())) return;
  output?.appendLine("Gemstack: this workspace is now a Gemstack repository: starting the language server");
  void ensureStarted(context);
}

/** Runs `action` in a Gemstack workspace; elsewhere says why nothing happens (and starts nothing). */
function inGemstack<T extends unknown[]>(action: (...args: T) => unknown): (...args: T) => Promise<void> {
  return async (...args: T) => {
    if (!gemstackWorkspace && !(await refreshWorkspaceKind())) {
      output?.appendLine(NOT_GEMSTACK);
      void vscode.window.showInformationMessage(NOT_GEMSTACK);
      return;
    }
    await action(...args);
  };
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  activatedAt = Date.now();
  output = vscode.window.createOutputChannel("Gemstack");
  status = new CapsuleStatus();
  context.subscriptions.push(
    output,
    status,
    vscode.commands.registerCommand(
      "gemstack.editor.regenerateCapsule",
      inGemstack(async (feature?: string) => {
        const dir = feature || (await pickFeature());
        if (dir) await runServerCommand("gemstack.regenerateCapsule", [featureUri(dir)], "Regenerate Context Capsule");
      }),
    ),
    vscode.commands.registerCommand(
      "gemstack.editor.verifyCapsule",
      inGemstack(async (feature?: string) => {
        const dir = feature || (await pickFeature());
        if (dir) await runServerCommand("gemstack.verifyCapsule", [featureUri(dir)], "Verify Context Capsule");
      }),
    ),
    vscode.commands.registerCommand(
      "gemstack.editor.checkWorkspace",
      inGemstack(async () => {
        await runServerCommand("gemstack.checkWorkspace", [], "Check Workspace");
        await vscode.commands.executeCommand("workbench.actions.view.problems");
      }),
    ),
    vscode.commands.registerCommand("gemstack.editor.restartServer", inGemstack(() => ensureStarted(context))),
    vscode.commands.registerCommand(INSTALL_COMMAND, async () => {
      if (gemstackWorkspace || (await refreshWorkspaceKind())) return ensureStarted(context, true);
      // Asked for outside a Gemstack workspace: install, start nothing.
      const installed = await installPrivateServer(context, "on request", resolve(context).tried);
      if (installed) void vscode.window.showInformationMessage(`Gemstack: installed ${installed}; it starts in Gemstack workspaces.`);
    }),
    // Shows the channel only: never starts or installs anything.
    vscode.commands.registerCommand("gemstack.editor.showOutput", () => output?.show()),
    vscode.commands.registerCommand("gemstack.openTerminal", () => openCliTerminal()),
    vscode.commands.registerCommand("gemstack.copyServerPath", () => copyCliPath()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("gemstack.server.path") && gemstackWorkspace) void ensureStarted(context);
    }),
    // Trusting the folder lifts Restricted Mode: restart so the server may run git and write.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void ensureStarted(context)),
    vscode.workspace.onDidSaveTextDocument((document) => {
      if (!gemstackWorkspace && document.languageId === "markdown" && hasGemstackBlock(document.getText())) {
        void startIfGemstack(context);
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void startIfGemstack(context)),
    vscode.window.onDidChangeActiveTextEditor(() => status?.refresh()),
    vscode.languages.onDidChangeDiagnostics(() => {
      status?.refresh();
      noteFirstDiagnostics();
    }),
  );
  const gemstackFolder = vscode.workspace.createFileSystemWatcher("**/.gemstack", false, true, true);
  context.subscriptions.push(gemstackFolder, gemstackFolder.onDidCreate(() => void startIfGemstack(context)));
  // Never awaited: activation (and so every Gemstack command) must not wait on an install or a message.
  void refreshWorkspaceKind().then((isGemstack) => {
    if (isGemstack) {
      void ensureStarted(context);
    } else {
      output?.appendLine(NOT_GEMSTACK);
    }
  });
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
