// Drives code-server (real VS Code in a browser) in headless Chromium with playwright-core.
//
//   node drive.js <url> <result.json> [screenshot-dir]
//
// Opens the workbench, waits for the Gemstack diagnostics in the Problems panel, writes what
// the panel and the status bar show as JSON, and optionally takes screenshots (Problems panel,
// a hover, the code lenses).
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const [url, resultFile, shotDir] = process.argv.slice(2);
const expected = JSON.parse(process.env.GEMSTACK_EXPECTED || "{}"); // {"errors": n, "warnings": n, "codes": [...]}
const TIMEOUT = Number(process.env.GEMSTACK_TIMEOUT_MS || 90000);

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function problems(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")];
    const status = document.querySelector('[id="status.problems"]');
    return {
      rows: rows.map((r) => ({ label: r.getAttribute("aria-label") || "", text: r.textContent || "" })),
      status: status ? status.getAttribute("aria-label") || status.textContent : null,
    };
  });
}

async function notifications(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".notification-toast, .notifications-toasts .monaco-list-row")].map(
      (n) => n.textContent || "",
    ),
  );
}

async function statusBar(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll(".statusbar-item")].map((e) => e.textContent || "").join(" | "),
  );
}

async function firstRow(page) {
  return page.evaluate(() => {
    const row = document.querySelector(".quick-input-widget .monaco-list-row.focused, .quick-input-widget .monaco-list-row");
    return row ? row.getAttribute("aria-label") || "" : "";
  });
}

async function runCommand(page, title) {
  await page.keyboard.press("F1");
  await page.waitForSelector(".quick-input-widget .quick-input-box input", { timeout: 15000 });
  await page.keyboard.type(title);
  // Wait until the palette's first entry is the command asked for.
  const deadline = Date.now() + 10000;
  while (Date.now() < deadline && !(await firstRow(page)).startsWith(title)) await sleep(200);
  await page.keyboard.press("Enter");
  // A busy workbench may ignore that Enter and leave the palette open on the typed command (a
  // command that opens a picker of its own changes the input): press Enter again then.
  for (let again = 0; again < 3; again++) {
    await sleep(700);
    if (!(await dialogHolds(page, `>${title}`))) break;
    enteredAgain.push(title);
    await page.keyboard.press("Enter");
  }
}

async function activeTab(page) {
  return page.evaluate(() => {
    const tab = document.querySelector(".editor-group-container.active .tab.active, .tabs-container .tab.active");
    return tab ? tab.getAttribute("aria-label") || tab.textContent || "" : "";
  });
}

// Whether the active editor is the file at `rel`: its tab names the file, and, for a file in a
// folder, its breadcrumbs name the folders (the demo has several spec.md: a tab named spec.md
// may be another feature's).
async function showing(page, rel) {
  const parts = rel.split("/");
  if (!(await activeTab(page)).startsWith(parts[parts.length - 1])) return false;
  if (parts.length === 1) return true;
  const crumbs = await page.evaluate(() =>
    [...document.querySelectorAll(".editor-group-container.active .breadcrumbs-control .monaco-breadcrumb-item")]
      .map((e) => (e.textContent || "").trim())
      .join("/"),
  );
  return crumbs.includes(rel);
}

// Whether "File: Open File..."'s list shows an entry named `name` (the typed folder is read).
async function dialogLists(page, name) {
  return page.evaluate(
    (wanted) =>
      [...document.querySelectorAll(".quick-input-widget .quick-input-list .monaco-list-row")].some(
        (row) => (row.getAttribute("aria-label") || "").split(",")[0].trim() === wanted,
      ),
    name,
  );
}

// The quick input (the palette, "File: Open File...", Go to Line): whether it is shown, and
// whether it has the keyboard with a value starting with `prefix` (a closed widget keeps its
// last value in the DOM; keys meant for it must never reach the editor behind it).
async function quickInput(page, prefix) {
  return page.evaluate((wanted) => {
    const widget = document.querySelector(".quick-input-widget");
    const input = document.querySelector(".quick-input-widget .quick-input-box input");
    const style = widget && getComputedStyle(widget);
    const shown =
      !!style && style.display !== "none" && style.visibility !== "hidden" && widget.getBoundingClientRect().height > 0;
    const ready = shown && !!input && document.activeElement === input && input.value.startsWith(wanted);
    return { shown, ready, value: input ? input.value : "" };
  }, prefix);
}

// Whether a quick input is still open on exactly `value`, with the keyboard: an Enter pressed
// then can only go to it.
async function dialogHolds(page, value) {
  const state = await quickInput(page, value);
  return state.ready && state.value === value;
}

// Files the driver could not bring up in an editor (with what the active tab showed instead).
const openFailures = [];
// Commands and files whose Enter the busy workbench ignored, and which got it again.
const enteredAgain = [];
// Files that opened only on a later attempt (how often the retry is needed, for the record).
const openRetries = [];

async function openFile(page, rel, line) {
  // "File: Open File..." is code-server's simple file dialog: type the absolute path. On a
  // loaded machine the dialog may still be completing a path when Enter arrives (and open
  // another file or a folder): check the active editor is the file, and try again if not.
  const folder = new URL(url).searchParams.get("folder");
  const name = path.basename(rel);
  const target = path.join(folder, rel);
  let opened = false;
  let attempt = 0;
  for (; attempt < 4 && !opened; attempt++) {
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+O");
    await page.waitForSelector(".quick-input-widget .quick-input-box input", { timeout: 15000 });
    await sleep(800 + attempt * 700);
    await page.keyboard.press("Control+A");
    await page.keyboard.type(target);
    // The dialog lists a folder only once it has read it (slowly, on a loaded machine), and
    // Enter before that does nothing: wait until the list shows the file itself.
    const listed = Date.now() + 10000 + attempt * 5000;
    while (Date.now() < listed && !(await dialogLists(page, name))) await sleep(200);
    await sleep(300 + attempt * 500);
    await page.keyboard.press("Enter");
    // The dialog ignores an Enter that comes while it is busy (validating the path): it stays
    // open on the typed path. Press Enter again then, rather than start over.
    const until = Date.now() + 8000 + attempt * 4000;
    let entered = Date.now();
    // The file may be the active editor already: it is open once the dialog has closed too.
    const done = async () => (await showing(page, rel)) && !(await quickInput(page, "")).shown;
    while (Date.now() < until && !(await done())) {
      await sleep(250);
      if (Date.now() - entered > 1500 && (await dialogHolds(page, target))) {
        enteredAgain.push(rel);
        await page.keyboard.press("Enter");
        entered = Date.now();
      }
    }
    opened = await done();
  }
  if (!opened) openFailures.push({ file: rel, activeTab: await activeTab(page) });
  else if (attempt > 1) openRetries.push({ file: rel, attempts: attempt });
  await sleep(400);
  if (line) await goToLine(page, line);
}

async function goToLine(page, line) {
  // Type the line only once Go to Line's box (":") has the keyboard: typed into the editor,
  // the digits and the Enter would edit the document.
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.keyboard.press("Control+G");
    const until = Date.now() + 5000;
    while (Date.now() < until && !(await quickInput(page, ":")).ready) await sleep(100);
    if ((await quickInput(page, ":")).ready) {
      await page.keyboard.type(String(line));
      await page.keyboard.press("Enter");
      await sleep(500);
      return;
    }
    enteredAgain.push(`Go to Line ${line}`);
    if ((await quickInput(page, "")).shown) await page.keyboard.press("Escape");
  }
}

(async () => {
  const started = Date.now();
  const result = { ok: false, steps: {} };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  let page = null;
  try {
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url, { timeout: TIMEOUT });
    await page.waitForSelector(".monaco-workbench", { timeout: TIMEOUT });
    result.steps.workbench = Date.now() - started;
    // Problems panel.
    await page.keyboard.press("Control+Shift+M");
    await sleep(1000);
    if (process.env.GEMSTACK_MAXIMIZE === "1") await runCommand(page, "View: Toggle Maximized Panel");
    const want = expected.codes || [];
    const deadline = Date.now() + TIMEOUT;
    let seen = { rows: [], status: null };
    // Every notification text seen while waiting (a progress notification comes and goes).
    const seenNotifications = new Set();
    while (want.length > 0 && Date.now() < deadline) {
      for (const t of await notifications(page)) seenNotifications.add(t);
      seen = await problems(page);
      const text = seen.rows.map((r) => r.text + " " + r.label).join("\n");
      if (want.length > 0 && want.every((code) => text.includes(code))) break;
      await sleep(500);
    }
    result.steps.problems = Date.now() - started;
    result.problems = seen;
    result.seen_notifications = [...seenNotifications];
    // Wait for a notification (e.g. the missing-server error).
    const notification = process.env.GEMSTACK_NOTIFICATION;
    if (notification) {
      const until = Date.now() + TIMEOUT;
      result.notification_found = false;
      while (Date.now() < until) {
        const texts = await notifications(page);
        result.notifications = texts;
        if (texts.some((t) => t.includes(notification))) {
          result.notification_found = true;
          break;
        }
        await sleep(300);
      }
    }
    // A toast: wait for it; run a palette command while it is open (it must answer, not wait
    // on the toast); then press one of its buttons and read what a selector shows.
    const toast = JSON.parse(process.env.GEMSTACK_TOAST || "null");
    if (toast) {
      result.toast = {};
      const box = page.locator(".notification-toast", { hasText: toast.text }).first();
      await box.waitFor({ timeout: TIMEOUT });
      result.toast.shown = (await box.textContent()) || "";
      if (toast.command) {
        await runCommand(page, toast.command);
        const until = Date.now() + TIMEOUT;
        result.toast.answered = false;
        while (Date.now() < until) {
          const texts = await notifications(page);
          if (texts.some((t) => t.includes(toast.answer))) {
            result.toast.answered = true;
            break;
          }
          await sleep(300);
        }
        result.toast.notifications = await notifications(page);
      }
      if (toast.button) {
        const again = page.locator(".notification-toast", { hasText: toast.text }).first();
        await again.hover();
        await again.locator(".monaco-button", { hasText: toast.button }).first().click();
        let text = "";
        const until = Date.now() + TIMEOUT;
        while (Date.now() < until) {
          text = await page.evaluate(
            (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent || "").join("\n"),
            toast.selector,
          );
          if (text.includes(toast.expect)) break;
          await sleep(300);
        }
        result.toast.after = text;
      }
    }
    // Probes: open a file at a position, press keys, read the text of the elements matching a selector.
    result.probes = {};
    for (const probe of JSON.parse(process.env.GEMSTACK_PROBES || "[]")) {
      await openFile(page, probe.file, probe.line);
      if (probe.column) {
        await page.keyboard.press("Home");
        for (let i = 1; i < probe.column; i++) await page.keyboard.press("ArrowRight");
      }
      // A palette command on that position (e.g. Developer: Inspect Editor Tokens and Scopes).
      let ran = Date.now();
      if (probe.command) {
        await sleep(probe.settle || 0);
        await runCommand(page, probe.command);
        ran = Date.now();
      }
      let text = "";
      const until = Date.now() + TIMEOUT;
      let pressed = 0;
      while (Date.now() < until) {
        // Press the keys again every few seconds: on a loaded machine the first chord may
        // reach an editor that is still opening.
        if ((probe.keys || []).length > 0 && Date.now() >= pressed + 4000) {
          for (const key of probe.keys) {
            await page.keyboard.press(key);
            await sleep(150);
          }
          pressed = Date.now();
        }
        text = await page.evaluate(
          (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent || "").join("\n"),
          probe.selector,
        );
        if (!probe.expect || text.includes(probe.expect)) break;
        // A palette command whose widget never showed (the editor was still opening when it
        // ran): run it again, only while nothing shows (such commands toggle their widget).
        if (probe.command && !text && Date.now() >= ran + 15000) {
          await page.keyboard.press("Escape");
          await runCommand(page, probe.command);
          ran = Date.now();
          result.probe_reruns = (result.probe_reruns || 0) + 1;
        }
        await sleep(300);
      }
      result.probes[probe.name] = text;
      result.probe_tabs = { ...(result.probe_tabs || {}), [probe.name]: await activeTab(page) };
      if (probe.shot && shotDir) {
        fs.mkdirSync(shotDir, { recursive: true });
        await sleep(300);
        await page.screenshot({ path: path.join(shotDir, probe.shot) });
      }
      await page.keyboard.press("Escape");
    }
    // Actions: a scripted sequence, each step waiting for the condition it names (no fixed
    // sleep as the only guard). Steps: {open, line, column}: open a file there ({goto: true,
    // line, column}: move there in the editor already open); {keys, until}:
    // press keys (again every 4 s until the selector `until` shows, when given); {type}: type
    // text; {click, text}: click the first element of a selector (holding a text); {command}: run a
    // palette command; {select, expect, name}: wait until the elements
    // matching a selector show a text (recorded under `name`); {file, contains, press, name}: wait
    // until a file of the folder holds a text (its content recorded under `name`), pressing the
    // keys `press` (e.g. a save; ">Title" runs a palette command) every 4 s meanwhile;
    // {probe, expect, name}: wait until a JavaScript expression evaluated in the page gives a
    // value holding a text (what the DOM shows beyond text, e.g. decorations; recorded);
    // {repeat, watch, times, stop, name}: press a key up to `times` times, each time waiting for
    // the text of the selector `watch` to change (e.g. the status bar's cursor position), and
    // record each text; stops early at a text holding `stop`, or when a press changes nothing.
    const actions = JSON.parse(process.env.GEMSTACK_ACTIONS || "null");
    if (actions) {
      result.actions = {};
      const folder = new URL(url).searchParams.get("folder");
      const read = (sel) =>
        page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => e.textContent || "").join("\n"), sel);
      for (const [index, step] of actions.entries()) {
        const t0 = Date.now();
        const label = step.name || `step ${index}`;
        if (step.open || step.goto) {
          // Again until the status bar shows the editor on that line (a loaded machine may drop
          // a key of the open or the go-to-line). {goto: true, line, column}: the same in the
          // editor already open (no file dialog).
          const until = Date.now() + TIMEOUT;
          const where = () => read('[id="status.editor.selection"]');
          let at = "";
          do {
            if (step.open) await openFile(page, step.open, step.line);
            else await goToLine(page, step.line);
            const settle = Date.now() + 3000;
            while (Date.now() < settle && !(at = await where()).includes(`Ln ${step.line || 1},`)) await sleep(200);
          } while (!at.includes(`Ln ${step.line || 1},`) && Date.now() < until);
          if (!at.includes(`Ln ${step.line || 1},`)) throw new Error(`${label}: ${step.open || "the editor"} did not go to line ${step.line}: ${at}`);
          if (step.column) {
            await page.keyboard.press("Home");
            for (let i = 1; i < step.column; i++) await page.keyboard.press("ArrowRight");
          }
        } else if (step.keys) {
          const until = Date.now() + TIMEOUT;
          let shown = false;
          do {
            for (const key of step.keys) {
              await page.keyboard.press(key);
              await sleep(150);
            }
            if (!step.until) break;
            const again = Date.now() + 4000;
            // Visible ones only: a widget used before (the rename box) stays in the DOM, hidden.
            const visible = page.locator(step.until).filter({ visible: true });
            while (Date.now() < again && !(shown = (await visible.count()) > 0)) await sleep(200);
          } while (!shown && Date.now() < until);
          if (step.until && !shown) {
            const said = await read(".monaco-editor-overlaymessage, .notification-toast");
            const pos = await read('[id="status.editor.selection"]');
            throw new Error(`${label}: ${step.until} did not show after ${step.keys} (at ${pos}; shown: ${said})`);
          }
        } else if (step.click) {
          await page.locator(step.click, step.text ? { hasText: step.text } : {}).first().click({ timeout: TIMEOUT });
        } else if (step.type !== undefined) {
          await page.keyboard.type(step.type);
        } else if (step.command) {
          await runCommand(page, step.command);
        } else if (step.select) {
          let text = "";
          const until = Date.now() + TIMEOUT;
          while (Date.now() < until && !(text = await read(step.select)).includes(step.expect)) await sleep(300);
          result.actions[label] = text;
          if (!text.includes(step.expect)) throw new Error(`${label}: ${step.select} never showed ${step.expect}: ${text}`);
        } else if (step.file) {
          const file = path.join(folder, step.file);
          let text = "";
          const until = Date.now() + TIMEOUT;
          let pressed = 0;
          while (Date.now() < until && !(text = fs.readFileSync(file, "utf8")).includes(step.contains)) {
            // Keys that make it happen (e.g. a save), pressed again every 4 s while it does not.
            if ((step.press || []).length > 0 && Date.now() >= pressed + 4000) {
              for (const key of step.press) {
                // ">Title": a palette command; ":N": Go to Line N (typed only into its box).
                if (key.startsWith(">")) await runCommand(page, key.slice(1));
                else if (/^:[0-9]+$/.test(key)) await goToLine(page, Number(key.slice(1)));
                else await page.keyboard.press(key);
                await sleep(150);
              }
              pressed = Date.now();
            }
            await sleep(300);
          }
          result.actions[label] = text;
          if (!text.includes(step.contains)) throw new Error(`${label}: ${step.file} never held ${step.contains}`);
        } else if (step.probe) {
          let value = "";
          const until = Date.now() + TIMEOUT;
          while (Date.now() < until && !(value = String(await page.evaluate(step.probe))).includes(step.expect)) await sleep(300);
          result.actions[label] = value;
          if (!value.includes(step.expect)) throw new Error(`${label}: the probe never gave ${step.expect}: ${value}`);
        } else if (step.repeat) {
          // A press that changes nothing is pressed again (a loaded machine may drop a key), up to
          // three times: after 20 s for the first (the editor may still be asking the server),
          // 5 s for the others; then the sequence has ended (e.g. the whole document selected).
          const texts = [];
          // First the text as it settles (the status bar may still be catching up with the keys
          // of the step before): the same twice, half a second apart.
          let last = await read(step.watch);
          for (const settle = Date.now() + 5000; Date.now() < settle; ) {
            await sleep(500);
            const now = await read(step.watch);
            if (now === last) break;
            last = now;
          }
          for (let i = 0; i < step.times && !(step.stop && last.includes(step.stop)); i++) {
            let now = last;
            for (let tries = 0; now === last && tries < 3; tries++) {
              await page.keyboard.press(step.repeat);
              const again = Date.now() + (i === 0 ? 20000 : 5000);
              while (Date.now() < again && (now = await read(step.watch)) === last) await sleep(100);
            }
            if (now === last) break;
            texts.push(now);
            last = now;
          }
          result.actions[label] = texts;
          if (texts.length === 0) throw new Error(`${label}: ${step.repeat} never changed ${step.watch}: ${last}`);
          if (step.stop && !last.includes(step.stop)) throw new Error(`${label}: ${step.watch} never showed ${step.stop}: ${texts}`);
        }
        result.steps[label] = Date.now() - t0;
      }
    }
    // The palette's entries for a query (which commands it offers here).
    const palette = JSON.parse(process.env.GEMSTACK_PALETTE || "null");
    if (palette) {
      // The Problems panel first (the command run below may show another panel).
      await sleep(palette.before || 0);
      result.palette_problems = await problems(page);
      // Validation by another extension (VS Code's JSON support) may take longer on a loaded
      // machine: wait for the row the test expects, up to a minute.
      const until = Date.now() + 60000;
      const shows = (found) => found.rows.some((r) => `${r.text} ${r.label}`.includes(palette.problemsExpect));
      while (palette.problemsExpect && Date.now() < until && !shows(result.palette_problems)) {
        await sleep(500);
        result.palette_problems = await problems(page);
      }
      await page.keyboard.press("F1");
      await page.waitForSelector(".quick-input-widget .quick-input-box input", { timeout: 15000 });
      await page.keyboard.type(palette.query);
      await sleep(1500);
      result.palette = await page.evaluate(() =>
        [...document.querySelectorAll(".quick-input-widget .monaco-list-row")].map((r) => r.getAttribute("aria-label") || ""),
      );
      if (palette.run) {
        // Type the rest of the title, so the entry run is that command and no other.
        await page.keyboard.type(palette.run.startsWith(palette.query) ? palette.run.slice(palette.query.length) : "");
        const until = Date.now() + 10000;
        while (Date.now() < until && !(await firstRow(page)).startsWith(palette.run)) await sleep(200);
        result.palette_ran = await firstRow(page);
        await page.keyboard.press("Enter");
      } else {
        await page.keyboard.press("Escape");
      }
      // Whatever the command (or activation) does shows within this time.
      await sleep(palette.wait || 0);
      result.palette_notifications = await notifications(page);
      result.palette_status_bar = await statusBar(page);
    }
    // Click the status bar item showing one text, and wait for the status bar to show another.
    const click = JSON.parse(process.env.GEMSTACK_STATUS_CLICK || "null");
    if (click) {
      const t0 = Date.now();
      if (click.file) await openFile(page, click.file, 1);
      const item = page.locator(".statusbar-item", { hasText: click.text }).first();
      await item.waitFor({ timeout: TIMEOUT });
      result.status_before = await statusBar(page);
      await item.locator("a, .statusbar-item-label").first().click();
      let shown = "";
      const until = Date.now() + TIMEOUT;
      while (Date.now() < until) {
        shown = await statusBar(page);
        if (shown.includes(click.expect)) break;
        await sleep(300);
      }
      result.status_click = { after: shown, reached: shown.includes(click.expect), ms: Date.now() - t0 };
      await sleep(500);
      result.notifications_after_click = await notifications(page);
    }
    // Then run a palette command and wait for a code to leave the Problems panel.
    const after = JSON.parse(process.env.GEMSTACK_AFTER || "null");
    if (after) {
      const t0 = Date.now();
      await openFile(page, after.file, 1);
      await runCommand(page, after.command);
      let gone = false;
      const until = Date.now() + TIMEOUT;
      while (Date.now() < until) {
        const now = await problems(page);
        const text = now.rows.map((r) => r.text + " " + r.label).join("\n");
        if (!text.includes(after.gone)) {
          gone = true;
          result.problems_after = now;
          break;
        }
        await sleep(300);
      }
      result.after = { gone, ms: Date.now() - t0 };
      result.notifications = await notifications(page);
    }
    // Run a palette command that opens a terminal, type a command line into it, and wait for
    // the file that command line writes.
    const terminal = JSON.parse(process.env.GEMSTACK_TERMINAL || "null");
    if (terminal) {
      const t0 = Date.now();
      await runCommand(page, terminal.command);
      await page.waitForSelector(".terminal-wrapper, .xterm", { timeout: TIMEOUT });
      await sleep(2000);
      await page.keyboard.type(terminal.type);
      await page.keyboard.press("Enter");
      const until = Date.now() + TIMEOUT;
      while (Date.now() < until && !fs.existsSync(terminal.expectFile)) await sleep(300);
      await sleep(500);
      result.terminal = { written: fs.existsSync(terminal.expectFile), ms: Date.now() - t0 };
    }
    if (shotDir) {
      fs.mkdirSync(shotDir, { recursive: true });
      await sleep(500);
      await page.screenshot({ path: path.join(shotDir, "vscode-problems.png") });
      // A hover on a contract id and the code lenses of a spec.
      for (const shot of JSON.parse(process.env.GEMSTACK_SHOTS || "[]")) {
        await openFile(page, shot.file, shot.line);
        if (shot.column) {
          await page.keyboard.press("Home");
          for (let i = 1; i < shot.column; i++) await page.keyboard.press("ArrowRight");
        }
        for (const key of shot.keys || []) {
          await page.keyboard.press(key);
          await sleep(150);
        }
        if (shot.command) await runCommand(page, shot.command);
        if (shot.hoverStatus) {
          // Point at the status bar item showing this text, so its tooltip shows.
          const item = page.locator(".statusbar-item", { hasText: shot.hoverStatus }).first();
          await item.waitFor({ timeout: TIMEOUT });
          await item.hover();
        }
        await sleep(shot.wait || 1500);
        const viewport = page.viewportSize();
        const clip = shot.bottom && viewport ? { x: 0, y: viewport.height - shot.bottom, width: viewport.width, height: shot.bottom } : undefined;
        await page.screenshot({ path: path.join(shotDir, shot.name), clip });
        await page.keyboard.press("Escape");
      }
    }
    result.open_failures = openFailures;
    result.open_retries = openRetries;
    result.entered_again = enteredAgain;
    result.ok = true;
  } catch (error) {
    result.error = String(error && error.stack ? error.stack : error);
    try {
      if (page) {
        result.notifications_at_error = await notifications(page);
        // An editor's own message (a refused rename, "No result") and where the cursor was.
        result.editor_messages_at_error = await page.evaluate(() =>
          [...document.querySelectorAll(".monaco-editor-overlaymessage")].map((e) => e.textContent || ""),
        );
        result.status_at_error = await statusBar(page);
        // What the screen showed, beside the result file.
        await page.screenshot({ path: path.join(path.dirname(resultFile), "error.png") });
      }
    } catch (_) {
      // the page is gone
    }
  } finally {
    result.total_ms = Date.now() - started;
    fs.writeFileSync(resultFile, JSON.stringify(result, null, 2));
    await browser.close();
  }
  process.exit(result.ok ? 0 : 1);
})();
