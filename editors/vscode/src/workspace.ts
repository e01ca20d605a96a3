// Which workspaces are Gemstack repositories (no VS Code API here, so test/workspace.test.js
// checks it with node). A folder is one when it holds `.gemstack/`, or when a Markdown file of
// its `specs/<feature>/` folders has a Gemstack block (a fence whose info string starts with
// `gemstack-`). A spec-kit repository (specs/###/spec.md, no Gemstack block) is not: the
// extension starts no server there and installs nothing.
import * as fs from "fs";
import * as path from "path";

/** A line that opens a Gemstack block: up to three spaces, ``` or ~~~ (or longer), `gemstack-`. */
export const BLOCK_OPEN = /^ {0,3}(?:`{3,}|~{3,})[ \t]*gemstack-/m;
/** The Markdown files searched for a block. */
export const SPEC_GLOB = "**/specs/*/*.md";
/** At most this many files are read (a huge specs/ is not read whole). */
export const MAX_FILES = 400;
/** At most this many bytes of each. */
export const MAX_BYTES = 1024 * 1024;

/** The context key that is true in Gemstack workspaces (the palette's `when` clauses use it). */
export const CONTEXT_KEY = "gemstack.isGemstackWorkspace";

/** What the commands say outside a Gemstack workspace (instead of starting anything). */
export const NOT_GEMSTACK =
  "Gemstack: this workspace is not a Gemstack repository (no .gemstack/ folder and no ```gemstack-* block in specs/<feature>/*.md), so the language server is not started.";

export function hasGemstackBlock(text: string): boolean {
  return BLOCK_OPEN.test(text);
}

async function head(file: string, bytes: number): Promise<string> {
  const handle = await fs.promises.open(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Whether one of the files (read up to MAX_BYTES each, at most MAX_FILES) has a Gemstack block. */
export async function anyHasBlock(files: string[], limit = MAX_FILES): Promise<boolean> {
  for (const file of files.slice(0, limit)) {
    try {
      if (hasGemstackBlock(await head(file, MAX_BYTES))) return true;
    } catch {
      // Unreadable (vanished, a folder, no permission): not a block.
    }
  }
  return false;
}

/** Whether `folder` holds `.gemstack/`. */
export function hasGemstackFolder(folder: string): boolean {
  try {
    return fs.statSync(path.join(folder, ".gemstack")).isDirectory();
  } catch {
    return false;
  }
}

/** The Markdown files of `folder/specs/<feature>/`, sorted (what the glob finds in one folder). */
export async function specFiles(folder: string): Promise<string[]> {
  const specs = path.join(folder, "specs");
  let features: fs.Dirent[];
  try {
    features = await fs.promises.readdir(specs, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const feature of features.filter((f) => f.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    let files: fs.Dirent[];
    try {
      files = await fs.promises.readdir(path.join(specs, feature.name), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.isFile() && f.name.endsWith(".md")).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push(path.join(specs, feature.name, file.name));
    }
  }
  return out;
}

/** Whether a folder is a Gemstack repository (`.gemstack/`, or a block in specs/<feature>/*.md). */
export async function isGemstackFolder(folder: string): Promise<boolean> {
  return hasGemstackFolder(folder) || anyHasBlock(await specFiles(folder));
}
