// Which workspaces are Gemstack repositories, as the server decides it (core/identity.py; no
// VS Code API here, so test/workspace.test.js checks it with node). A folder is one when it
// holds `.gemstack/`, or when one of its features (`specs/<feature>/`) has a
// context-capsule.json or closure.json, or a spec.md, plan.md or tasks.md with a Gemstack block
// (a fence whose info string starts with `gemstack-`) or Gemstack task metadata
// (`<!-- gemstack:tests=... -->`). A spec-kit repository (specs/###/spec.md, no Gemstack block)
// is not: the extension starts no server there and installs nothing.
import * as fs from "fs";
import * as path from "path";

/** A line that opens a Gemstack block: up to three spaces, ``` or ~~~ (or longer), `gemstack-`. */
export const BLOCK_OPEN = /^ {0,3}(?:`{3,}|~{3,})[ \t]*gemstack-/m;
/** Gemstack task metadata in a Markdown file. */
export const METADATA = /<!--[ \t]*gemstack:[a-z_]+=/;
/** The Markdown files searched for a block. */
export const SPEC_GLOB = "**/specs/*/{spec,plan,tasks}.md";
/** Files whose existence in a feature folder makes it Gemstack. */
export const ARTIFACT_GLOB = "**/specs/*/{context-capsule,closure}.json";
const ARTIFACTS = ["context-capsule.json", "closure.json"];
const DOCUMENTS = ["spec.md", "plan.md", "tasks.md"];
/** At most this many files are read (a huge specs/ is not read whole). */
export const MAX_FILES = 400;
/** At most this many bytes of each. */
export const MAX_BYTES = 1024 * 1024;

/** The context key that is true in Gemstack workspaces (the palette's `when` clauses use it). */
export const CONTEXT_KEY = "gemstack.isGemstackWorkspace";

/** What the commands say outside a Gemstack workspace (instead of starting anything). */
export const NOT_GEMSTACK =
  "Gemstack: this workspace is not a Gemstack repository (no .gemstack/ folder, and no Gemstack block, context capsule or closure.json in specs/<feature>/), so the language server is not started.";

/** Whether a Markdown text has a Gemstack block or Gemstack task metadata. */
export function hasGemstackBlock(text: string): boolean {
  return BLOCK_OPEN.test(text) || METADATA.test(text);
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

/** Whether a feature folder of `folder` has a context capsule or closure.json. */
export function hasArtifact(folder: string): boolean {
  let features: fs.Dirent[];
  try {
    features = fs.readdirSync(path.join(folder, "specs"), { withFileTypes: true });
  } catch {
    return false;
  }
  return features
    .filter((f) => f.isDirectory())
    .some((f) => ARTIFACTS.some((name) => fs.existsSync(path.join(folder, "specs", f.name, name))));
}

/** The spec.md, plan.md and tasks.md of `folder/specs/<feature>/`, sorted (what the glob finds in one folder). */
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
    for (const file of files.filter((f) => f.isFile() && DOCUMENTS.includes(f.name)).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push(path.join(specs, feature.name, file.name));
    }
  }
  return out;
}

/** Whether a folder is a Gemstack repository (see the top of this file). */
export async function isGemstackFolder(folder: string): Promise<boolean> {
  return hasGemstackFolder(folder) || hasArtifact(folder) || anyHasBlock(await specFiles(folder));
}
