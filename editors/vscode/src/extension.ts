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
import { INSTALL_HINT, SERVER_NAME, resolveServer } from "./serverPath";

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
let output: vscode.OutputChannel | undefined;

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

async function reportMissingServer(badSetting: string | undefined, tried: string[]): Promise<void> {
  const message = badSetting
    ? `Gemstack: gemstack.server.path is "${badSetting}", which is not an executable. ` +
      `Fix the setting, or clear it to use ${SERVER_NAME} from PATH.`
    : `Gemstack: the language server "${SERVER_NAME}" was not found (looked for: ${tried.join("; ")}). ` +
      `Install it with "${INSTALL_HINT}" (in the workspace's .venv or on PATH), or set gemstack.server.path.`;
  output?.appendLine(message);
  const choice = await vscode.window.showErrorMessage(message, "Copy Install Command", "Open Settings");
  if (choice === "Copy Install Command") {
    await vscode.env.clipboard.writeText(INSTALL_HINT);
  } else if (choice === "Open Settings") {
    await vscode.commands.executeCommand("workbench.action.openSettings", "gemstack.server.path");
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const setting = vscode.workspace.getConfiguration("gemstack").get<string>("server.path", "");
  const resolution = resolveServer(setting, folderPaths());
  if (!resolution.command) {
    await reportMissingServer(resolution.badSetting, resolution.tried);
    return;
  }
  output?.appendLine(`Gemstack: starting ${resolution.command} serve`);
  const folders = folderPaths();
  const serverOptions: ServerOptions = {
    command: resolution.command,
    args: ["serve"],
    options: { cwd: folders[0] },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: serverSettings(),
    synchronize: {
      configurationSection: "gemstack",
      fileEvents: vscode.workspace.createFileSystemWatcher(WATCHED),
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
  client = new LanguageClient("gemstack", "Gemstack", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    const message = `Gemstack: the language server failed to start (${resolution.command} serve): ${String(error)}`;
    output?.appendLine(message);
    void vscode.window.showErrorMessage(message, "Show Output").then((c) => c && output?.show());
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) await running.stop();
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

/** Runs a server command through workspace/executeCommand and shows what it answered. */
async function runServerCommand(command: string, args: unknown[], title: string): Promise<void> {
  if (!client || !client.isRunning()) {
    void vscode.window.showErrorMessage(
      `Gemstack: the language server is not running. Install it with "${INSTALL_HINT}" or set gemstack.server.path, then run "Gemstack: Restart Language Server".`,
    );
    return;
  }
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `Gemstack: ${title}` },
      () => client!.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    );
    void vscode.window.showInformationMessage(`Gemstack: ${title}: ${describe(result)}`);
  } catch (error) {
    void vscode.window.showErrorMessage(`Gemstack: ${title} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("Gemstack");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("gemstack.editor.regenerateCapsule", async (feature?: string) => {
      const dir = feature || (await pickFeature());
      if (dir) await runServerCommand("gemstack.regenerateCapsule", [featureUri(dir)], "Regenerate Context Capsule");
    }),
    vscode.commands.registerCommand("gemstack.editor.verifyCapsule", async (feature?: string) => {
      const dir = feature || (await pickFeature());
      if (dir) await runServerCommand("gemstack.verifyCapsule", [featureUri(dir)], "Verify Context Capsule");
    }),
    vscode.commands.registerCommand("gemstack.editor.checkWorkspace", async () => {
      await runServerCommand("gemstack.checkWorkspace", [], "Check Workspace");
      await vscode.commands.executeCommand("workbench.actions.view.problems");
    }),
    vscode.commands.registerCommand("gemstack.editor.restartServer", async () => {
      await stopClient();
      await startClient(context);
    }),
    vscode.commands.registerCommand("gemstack.editor.showOutput", () => output?.show()),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("gemstack.server.path")) {
        await stopClient();
        await startClient(context);
      }
    }),
  );
  await startClient(context);
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
