-- The context capsule's state for a statusline: "Capsule STALE" for the current buffer's feature.
--
-- The statusline is drawn often and must never wait, so statusline() only reads a cache. The
-- cache is filled by the server's gemstack/capsuleState request, asked asynchronously when a
-- client attaches, on BufEnter, when diagnostics change (debounced: a regenerate or an edit
-- changes both) and after a command ran; each answer redraws the statuslines.

local M = {}

local uv = vim.uv or vim.loop

M.REQUEST = "gemstack/capsuleState"
--- Delay after the last DiagnosticChanged before the state is asked again.
M.DEBOUNCE_MS = 150

--- Per feature folder (absolute path): the server's last answer.
local by_feature = {}
--- Per buffer: the feature folder the server named for it (false: the buffer has no feature).
local by_buf = {}
--- Per buffer: a request is in flight.
local inflight = {}
--- Per buffer: another refresh was asked while one was in flight.
local again = {}

local function gemstack()
  return require("gemstack")
end

local function redraw()
  pcall(vim.cmd, "redrawstatus!")
end

--- The feature folder of a buffer as far as the cache knows, else from its path.
local function feature_key(bufnr)
  local known = by_buf[bufnr]
  if known ~= nil then
    return known
  end
  return gemstack().feature_of(vim.api.nvim_buf_get_name(bufnr))
end

--- The cached answer for a buffer (nil when none is known yet).
function M.state(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local key = feature_key(bufnr)
  return key and by_feature[key] or nil
end

--- Asks the server for the state of the buffer's feature (asynchronously).
function M.refresh(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local g = gemstack()
  local client = nil
  for _, c in ipairs(g.clients(bufnr)) do
    if c.attached_buffers and c.attached_buffers[bufnr] then
      client = c
      break
    end
  end
  if not client then
    return
  end
  if inflight[bufnr] then
    again[bufnr] = true
    return
  end
  inflight[bufnr] = true
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  local ok = pcall(g.request, client, M.REQUEST, params, function(err, result)
    inflight[bufnr] = nil
    if not err then
      if type(result) == "table" and result.featureUri then
        local key = vim.uri_to_fname(result.featureUri)
        by_buf[bufnr] = key
        local before = by_feature[key]
        by_feature[key] = result
        if before and before.state ~= result.state and type(result.state) == "string" then
          -- The lens says the same state, within the same change (init.lua's sync_lens).
          vim.schedule(function()
            g.sync_lens(bufnr, result.state)
          end)
        end
      else
        by_buf[bufnr] = false
      end
      redraw()
    end
    if again[bufnr] then
      again[bufnr] = nil
      M.refresh(bufnr)
    end
  end, bufnr)
  if not ok then
    inflight[bufnr] = nil
  end
end

--- Refreshes every loaded buffer attached to a Gemstack client (one feature may show in
--- several windows, and a regenerate changes the state of buffers that are not current).
function M.refresh_all()
  local seen = {}
  for _, client in ipairs(gemstack().clients()) do
    for bufnr in pairs(client.attached_buffers or {}) do
      if vim.api.nvim_buf_is_loaded(bufnr) and not seen[bufnr] then
        seen[bufnr] = true
        M.refresh(bufnr)
      end
    end
  end
end

local timer = nil
--- refresh_all() once things are quiet for DEBOUNCE_MS.
function M.refresh_soon()
  if not timer then
    timer = uv.new_timer()
  end
  timer:stop()
  timer:start(M.DEBOUNCE_MS, 0, vim.schedule_wrap(M.refresh_all))
end

--- "Capsule VALID", "Capsule STALE", ... for the current buffer's feature; "" elsewhere, or
--- before the server answered. Cheap: a table lookup, never a request.
function M.statusline()
  local ok, text = pcall(function()
    local winid = vim.g.statusline_winid
    local bufnr = (winid and vim.api.nvim_win_is_valid(winid)) and vim.api.nvim_win_get_buf(winid)
      or vim.api.nvim_get_current_buf()
    local state = M.state(bufnr)
    if not state or type(state.state) ~= "string" then
      if state == nil and by_buf[bufnr] == nil and not inflight[bufnr] and feature_key(bufnr) then
        -- Not asked yet (a buffer opened before the client attached): ask, outside the redraw.
        vim.schedule(function()
          M.refresh(bufnr)
        end)
      end
      return ""
    end
    return "Capsule " .. state.state
  end)
  return ok and text or ""
end

--- Drops what is known of a buffer (it was wiped, or its client stopped).
function M.forget(bufnr)
  by_buf[bufnr], inflight[bufnr], again[bufnr] = nil, nil, nil
end

--- The autocommands that keep the cache fresh.
function M.follow()
  local group = vim.api.nvim_create_augroup("gemstack_status", { clear = true })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    callback = function(args)
      M.refresh(args.buf)
    end,
  })
  vim.api.nvim_create_autocmd("DiagnosticChanged", {
    group = group,
    callback = M.refresh_soon,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    callback = function(args)
      M.forget(args.buf)
    end,
  })
end

return M
