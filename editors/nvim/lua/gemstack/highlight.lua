-- JSON highlighting of Gemstack's fenced blocks (```gemstack-contracts, ```gemstack-test-matrix,
-- ...) in Markdown, for every Markdown buffer (a block is JSON wherever it is written).
--
-- Two mechanisms, one per way Neovim highlights Markdown:
-- * tree-sitter (vim.treesitter.start() or nvim-treesitter): queries/markdown/injections.scm
--   injects the json parser into the blocks; nothing to do here.
-- * the regex syntax (Neovim's default for Markdown, and all there is on 0.7): a region for the
--   fences that contains Vim's JSON syntax, added after markdown's own syntax on every `Syntax`
--   event (so it wins over markdown's plain code block, which starts at the same place).
--
-- vim.g.gemstack_json_fences = false (set before the plugin loads) leaves the regex syntax
-- alone; the tree-sitter injection follows the json parser (no parser, no injection).

local M = {}

--- The region's name (what :syntax list and synstack() show around a block's JSON).
M.REGION = "gemstackJsonFence"

--- The opening fence: three or more backticks (or tildes), then an info string that starts
--- with `gemstack-` (a block kind), then anything (attributes).
local function open(fence)
  return [[^\s*\z(]] .. fence .. [[\{3,}\)\s*gemstack-[[:alnum:]_.-]*\%(\s.*\)\=$]]
end
local function close(fence)
  return [[^\s*\z1]] .. fence .. [[*\s*$]]
end

--- Adds the JSON fence regions to the current buffer's syntax (which must be markdown).
function M.add_syntax()
  if vim.g.gemstack_json_fences == false then
    return
  end
  -- Already there (this syntax was loaded before the plugin followed it)? The group's name
  -- outlives a buffer, so ask for this buffer's items of that name.
  local ok, listed = pcall(vim.fn.execute, "syntax list " .. M.REGION)
  if ok and listed:find("start=", 1, true) then
    return
  end
  local current = vim.b.current_syntax
  vim.b.current_syntax = nil
  -- syntax/json.vim ends early when b:current_syntax is set: include it as a cluster.
  local ok = pcall(vim.cmd, "silent! syntax include @gemstackJson syntax/json.vim")
  vim.b.current_syntax = current
  if not ok then
    return
  end
  for _, fence in ipairs({ "`", "\\~" }) do
    vim.cmd(
      string.format(
        "syntax region %s matchgroup=markdownCodeDelimiter start=/%s/ end=/%s/ keepend contains=@gemstackJson",
        M.REGION,
        open(fence),
        close(fence)
      )
    )
  end
end

--- Adds the regions to a buffer whose Markdown syntax is loaded (else does nothing).
function M.add_to(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) or vim.b[bufnr].current_syntax ~= "markdown" then
    return
  end
  if bufnr == vim.api.nvim_get_current_buf() then
    M.add_syntax()
  else
    vim.api.nvim_buf_call(bufnr, M.add_syntax)
  end
end

--- Follows every Markdown buffer's syntax (and adds the regions to those already loaded).
function M.follow()
  if vim.g.gemstack_json_fences == false then
    return
  end
  local group = vim.api.nvim_create_augroup("gemstack_highlight", { clear = true })
  vim.api.nvim_create_autocmd("Syntax", {
    group = group,
    pattern = "markdown",
    callback = function(args)
      -- Markdown's syntax is loaded by an earlier Syntax autocommand (`:syntax on`'s), unless
      -- `:syntax on` ran after the plugin: then add the regions once it is loaded.
      if vim.b[args.buf].current_syntax == "markdown" then
        M.add_to(args.buf)
      else
        vim.schedule(function()
          M.add_to(args.buf)
        end)
      end
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    M.add_to(bufnr)
  end
end

return M
