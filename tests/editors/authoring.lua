-- Headless Neovim: the authoring features through Neovim's own LSP client (0.7 to 0.12).
--
--   GEMSTACK_PLUGIN=editors/nvim GEMSTACK_LSP=/abs/gemstack-lsp GEMSTACK_REPO=/tmp/demo \
--   GEMSTACK_RESULT=/tmp/out.json nvim --headless --clean -u tests/editors/authoring.lua
--
-- The demo copy has specs/009 unfrozen (its state.json's phase hashes removed by the test);
-- specs/008 stays frozen (the last completed feature). In order: semantic tokens, inlay hints,
-- document highlight, folding, selection ranges, range formatting of one of 010's two
-- blocks (written), formatting of the other, a rename of a 009 contract id
-- (vim.lsp.buf.rename, then :wall), a refused rename of a frozen 008 contract, and
-- :GemstackRenameFrozen on it. What the editor showed is written to GEMSTACK_RESULT as JSON; the
-- test compares it with the files. 0.7 has no semantic tokens, inlay hints or LSP folding:
-- the harness records that they are absent and that nothing raised.

local common = dofile(debug.getinfo(1, "S").source:sub(2):match("^(.*)/[^/]*$") .. "/harness_common.lua")
local H = common.new({ who = "authoring harness" })
local SERVER, REPO, TIMEOUT = H.SERVER, H.REPO, H.TIMEOUT

local SPEC9 = REPO .. "/specs/009-context-capsule/spec.md"
local SPEC8 = REPO .. "/specs/008-cost-provider-safety-gates/spec.md"
local SPEC10 = REPO .. "/specs/010-release-notes/spec.md"
local RENAME_FROM, RENAME_TO = "capsule-offline-deterministic", "capsule-offline-repeatable"
local FROZEN_FROM, FROZEN_TO = "upgrade-c-cost-states", "upgrade-c-states"
local HIGHLIGHT_ID = "zero-dependency-core"
local SELECT_ID = "capsule-is-derived-not-authority"

vim.cmd("filetype on")

local ms, R = H.ms, H.R
-- Errors written with nvim_err_writeln would not reach vim.notify: record them too.
local err_writeln = vim.api.nvim_err_writeln
vim.api.nvim_err_writeln = function(msg)
  H.note(msg, vim.log.levels.ERROR)
  return err_writeln(msg)
end

--- H.wait, a condition that raises counting as not yet true.
local function wait(name, cond)
  return H.wait(name, function()
    local good, done = pcall(cond)
    return good and done
  end)
end

local gemstack = require("gemstack")
local attached = common.attached

local function lines(bufnr)
  return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

--- The 0-based line and byte column of the `nth` occurrence of `needle` (plain) in the buffer.
local function find(bufnr, needle, nth)
  nth = nth or 1
  for i, text in ipairs(lines(bufnr)) do
    local from = 1
    while true do
      local s = text:find(needle, from, true)
      if not s then
        break
      end
      nth = nth - 1
      if nth == 0 then
        return i - 1, s - 1
      end
      from = s + 1
    end
  end
  error("not in buffer " .. bufnr .. ": " .. needle)
end

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  wait("attach " .. vim.fn.fnamemodify(path, ":h:t"), function()
    return attached(bufnr)
  end)
  return bufnr
end

--- Extmarks of the namespaces whose name contains `part`, as {row, col, end_row, end_col, hl}.
local function marks(bufnr, part)
  local out = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find(part, 1, true) then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, ns, 0, -1, { details = true })) do
        local d = m[4] or {}
        table.insert(out, { row = m[2], col = m[3], end_row = d.end_row, end_col = d.end_col, hl = d.hl_group })
      end
    end
  end
  table.sort(out, function(a, b)
    if a.row ~= b.row then
      return a.row < b.row
    end
    return a.col < b.col
  end)
  return out
end

local function request_sync(bufnr, method, params)
  local res = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  for _, r in pairs(res or {}) do
    if r.err then
      return nil, r.err
    end
    return r.result
  end
  return nil, { message = "no answer" }
end

--- The files of the modified buffers, relative to the repository, sorted.
local function modified_files()
  local out = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.bo[b].modified then
      table.insert(out, vim.api.nvim_buf_get_name(b):sub(#REPO + 2))
    end
  end
  table.sort(out)
  return out
end

local function has_message(part, since)
  for _, m in ipairs(R.messages) do
    if m.ms >= since and m.message:find(part, 1, true) then
      return m
    end
  end
end

local function main()
  gemstack.setup({ cmd = { SERVER, "serve" } })
  local client_encoding

  -- 009's spec: its analysis first (its diagnostics arrive), then the features on it.
  local spec8 = open(SPEC8)
  client_encoding = gemstack.clients(spec8)[1].offset_encoding
  R.offset_encoding = client_encoding
  local caps = gemstack.clients(spec8)[1].server_capabilities
  R.capabilities = {
    rename = caps.renameProvider ~= nil,
    formatting = caps.documentFormattingProvider ~= nil,
    highlight = caps.documentHighlightProvider ~= nil,
    folding = caps.foldingRangeProvider ~= nil,
    inlay = caps.inlayHintProvider ~= nil,
    semantic = caps.semanticTokensProvider ~= nil,
    commands = (caps.executeCommandProvider or {}).commands,
  }
  wait("diagnostics 008", function()
    return #vim.diagnostic.get(spec8) > 0
  end)

  -- Semantic tokens (0.9+): extmarks in the client's namespace, and the token under the id.
  local crow, ccol = find(spec8, '"' .. FROZEN_FROM .. '"')
  R.semantic = { supported = vim.lsp.semantic_tokens ~= nil, row = crow, col = ccol + 1 }
  if vim.lsp.semantic_tokens ~= nil then
    if vim.lsp.semantic_tokens.enable then
      vim.lsp.semantic_tokens.enable(true, { bufnr = spec8 })
    end
    -- Tokens are drawn for the lines on screen, when Neovim redraws (headless: on request).
    vim.api.nvim_win_set_cursor(0, { crow + 1, ccol + 2 })
    wait("semantic tokens", function()
      vim.cmd("redraw!")
      for _, m in ipairs(marks(spec8, "semantic_tokens")) do
        if m.row == crow and m.col == ccol + 1 then
          return true
        end
      end
    end)
    R.semantic.marks = vim.tbl_filter(function(m)
      return m.row == crow
    end, marks(spec8, "semantic_tokens"))
    R.semantic.tokens = vim.lsp.semantic_tokens.get_at_pos(spec8, crow, ccol + 2)
  end

  -- Inlay hints (0.10+): `frozen · spec` after every contract id of the frozen 008 spec.
  R.inlay = { supported = vim.lsp.inlay_hint ~= nil and type(vim.lsp.inlay_hint.enable) == "function" }
  if R.inlay.supported then
    vim.lsp.inlay_hint.enable(true, { bufnr = spec8 })
    local hints = {}
    wait("inlay hints", function()
      hints = vim.lsp.inlay_hint.get({ bufnr = spec8 })
      return #hints > 0
    end)
    R.inlay.enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = spec8 })
    R.inlay.hints = {}
    for _, h in ipairs(hints) do
      local label = h.inlay_hint.label
      if type(label) == "table" then
        local parts = {}
        for _, p in ipairs(label) do
          table.insert(parts, p.value)
        end
        label = table.concat(parts)
      end
      table.insert(R.inlay.hints, { line = h.inlay_hint.position.line, label = label })
    end
    -- Drawn: extmarks with virtual text in the inlay hint namespace.
    wait("inlay hints drawn", function()
      vim.cmd("redraw!")
      return #marks(spec8, "inlayhint") > 0
    end)
    R.inlay.drawn = marks(spec8, "inlayhint")
    R.inlay.virt_text = {}
    for name, ns in pairs(vim.api.nvim_get_namespaces()) do
      if name:find("inlayhint", 1, true) then
        for _, m in ipairs(vim.api.nvim_buf_get_extmarks(spec8, ns, 0, -1, { details = true })) do
          for _, chunk in ipairs(m[4].virt_text or {}) do
            table.insert(R.inlay.virt_text, { row = m[2], text = chunk[1] })
          end
        end
      end
    end
  end

  -- Document highlight: every occurrence of a contract id in 009's spec.
  local spec9 = open(SPEC9)
  wait("diagnostics 009", function()
    return #vim.diagnostic.get(spec9) > 0
  end)
  local hrow, hcol = find(spec9, '"' .. HIGHLIGHT_ID .. '"')
  vim.api.nvim_win_set_cursor(0, { hrow + 1, hcol + 3 })
  vim.lsp.buf.document_highlight()
  local hl_ns = { "nvim.lsp.references", "vim_lsp_references" }
  local function references()
    local out = {}
    for _, part in ipairs(hl_ns) do
      vim.list_extend(out, marks(spec9, part))
    end
    return out
  end
  wait("document highlight", function()
    return #references() > 0
  end)
  R.highlight = { id = HIGHLIGHT_ID, marks = references() }
  vim.lsp.util.buf_clear_references(spec9)

  -- Folding ranges: the request through the client, and (0.11+) vim.lsp.foldexpr.
  local folds, ferr = request_sync(spec9, "textDocument/foldingRange", { textDocument = { uri = vim.uri_from_bufnr(spec9) } })
  R.folding = { ranges = folds, err = ferr, foldexpr = vim.lsp.foldexpr ~= nil }
  local brow = find(spec9, "```gemstack-contracts")
  R.folding.block_row = brow
  if vim.lsp.foldexpr ~= nil then
    vim.wo.foldmethod = "expr"
    vim.wo.foldexpr = "v:lua.vim.lsp.foldexpr()"
    vim.wo.foldenable = true
    vim.wo.foldlevel = 99
    wait("foldexpr", function()
      return vim.fn.foldlevel(brow + 2) > 0
    end)
    R.folding.level_inside = vim.fn.foldlevel(brow + 2)
    vim.wo.foldlevel = 0
    R.folding.closed = { vim.fn.foldclosed(brow + 2), vim.fn.foldclosedend(brow + 2) }
    vim.wo.foldmethod = "manual"
    vim.cmd("normal! zE")
  end

  -- Selection ranges: the request at a cursor inside a contract id (the exact chain), and
  -- (0.12) vim.lsp.buf.selection_range, which selects those ranges in Visual mode.
  local srow, scol = find(spec9, '"' .. SELECT_ID .. '"')
  R.selection = { row = srow, col = scol + 5, supported = vim.lsp.buf.selection_range ~= nil }
  local sel, serr = request_sync(spec9, "textDocument/selectionRange", {
    textDocument = { uri = vim.uri_from_bufnr(spec9) },
    positions = { { line = srow, character = scol + 5 } },
  })
  R.selection.err = serr
  R.selection.chain = {}
  local node = (sel or {})[1]
  while node ~= nil do
    table.insert(R.selection.chain, node.range)
    node = node.parent
  end
  if R.selection.supported then
    vim.api.nvim_win_set_cursor(0, { srow + 1, scol + 5 })
    local function region()
      local v, c = vim.fn.getpos("v"), vim.fn.getpos(".")
      return { mode = vim.fn.mode(), from = { v[2] - 1, v[3] - 1 }, to = { c[2] - 1, c[3] - 1 } }
    end
    R.selection.visual = {}
    vim.lsp.buf.selection_range(1)
    wait("selection range", function()
      return vim.fn.mode() == "v"
    end)
    table.insert(R.selection.visual, region())
    vim.lsp.buf.selection_range(3) -- three steps out: the string, the member, the object
    table.insert(R.selection.visual, region())
    vim.cmd("normal! \27")
    R.selection.mode_after = vim.fn.mode()
  end

  -- 010's two blocks squeezed onto one line each.
  local spec10 = open(SPEC10)
  local original10 = lines(spec10)
  --- Rows of a block's fence and of its closing fence (0-based).
  local function block(fence)
    local now = lines(spec10)
    local first = find(spec10, fence)
    local last = first + 1
    while now[last + 1] ~= "```" do
      last = last + 1
    end
    return first, last, now
  end
  local function squeeze(fence)
    local first, last, now = block(fence)
    local body = table.concat(vim.list_slice(now, first + 2, last), " "):gsub("%s+", " ")
    vim.api.nvim_buf_set_lines(spec10, first + 1, last, false, { body })
  end
  squeeze("```gemstack-capabilities")
  squeeze("```gemstack-billable-actions")

  -- Range formatting: a selection of the billable-actions block's (squeezed) line only;
  -- 0.12 passes the range to vim.lsp.buf.format, 0.7 formats the Visual selection's marks.
  local bfirst = block("```gemstack-billable-actions")
  local bline = lines(spec10)[bfirst + 2]
  R.range_format = { squeezed = lines(spec10), row = bfirst + 1 }
  local before_range = lines(spec10)
  if vim.lsp.buf.format then
    vim.lsp.buf.format({
      bufnr = spec10,
      timeout_ms = TIMEOUT,
      range = { start = { bfirst + 2, 0 }, ["end"] = { bfirst + 2, #bline } },
    })
  else
    vim.api.nvim_win_set_cursor(0, { bfirst + 2, 0 })
    vim.cmd("normal! V\27")
    vim.lsp.buf.range_formatting()
  end
  wait("range formatting", function()
    return not vim.deep_equal(before_range, lines(spec10))
  end)
  R.range_format.after = lines(spec10)
  vim.cmd("write")
  R.range_format.disk = assert(common.read_file(SPEC10))

  -- Formatting: what is left squeezed (the capabilities block), with Neovim's format command.
  R.format = { squeezed = lines(spec10), original = original10 }
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = spec10, timeout_ms = TIMEOUT })
  else
    vim.lsp.buf.formatting_sync(nil, TIMEOUT)
  end
  R.format.after = lines(spec10)
  vim.cmd("write")

  -- Rename of a 009 contract id: Neovim's rename, every file it changes written with :wall.
  vim.cmd("buffer " .. spec9)
  local rrow, rcol = find(spec9, '"' .. RENAME_FROM .. '"')
  vim.api.nvim_win_set_cursor(0, { rrow + 1, rcol + 3 })
  local since = ms()
  vim.lsp.buf.rename(RENAME_TO)
  local plan9 = REPO .. "/specs/009-context-capsule/plan.md"
  local tasks9 = REPO .. "/specs/009-context-capsule/tasks.md"
  wait("rename applied", function()
    local p, t = vim.fn.bufnr(plan9), vim.fn.bufnr(tasks9)
    return p > 0 and t > 0 and table.concat(lines(spec9), "\n"):find(RENAME_TO, 1, true) ~= nil
      and table.concat(lines(t), "\n"):find(RENAME_TO, 1, true) ~= nil
  end)
  R.rename = { modified = modified_files() }
  R.rename.errors = vim.tbl_filter(function(m)
    return m.ms >= since and (m.level or 0) >= vim.log.levels.WARN
  end, R.messages)
  vim.cmd("silent wall")

  -- A frozen 008 contract: the rename is refused with the reason, nothing changes.
  vim.cmd("buffer " .. spec8)
  local before8 = lines(spec8)
  local frow, fcol = find(spec8, '"' .. FROZEN_FROM .. '"')
  vim.api.nvim_win_set_cursor(0, { frow + 1, fcol + 3 })
  since = ms()
  vim.lsp.buf.rename(FROZEN_TO)
  wait("frozen rename refused", function()
    return has_message("frozen", since) ~= nil
  end)
  R.frozen = { refusal = has_message("frozen", since) }
  -- Let a late edit (there must be none) arrive before looking.
  vim.wait(300)
  R.frozen.unchanged = vim.deep_equal(before8, lines(spec8)) and not vim.bo[spec8].modified

  -- The second action: :GemstackRenameFrozen, then every changed buffer written.
  since = ms()
  vim.cmd("GemstackRenameFrozen " .. FROZEN_TO)
  wait("frozen rename applied", function()
    local m = has_message("Renamed " .. FROZEN_FROM, since)
    return m ~= nil and table.concat(lines(spec8), "\n"):find(FROZEN_TO, 1, true) ~= nil
  end)
  R.frozen.result = gemstack.last_result
  R.frozen.message = has_message("Renamed " .. FROZEN_FROM, since)
  R.frozen.modified = modified_files()
  vim.cmd("silent wall")
  R.command_exists = vim.fn.exists(":GemstackRenameFrozen") == 2
end

H.run(main)
