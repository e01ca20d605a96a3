-- Headless: the plugin with no gemstack-lsp anywhere must say how to install it (:GemstackInstall).
-- Env: GEMSTACK_PLUGIN, GEMSTACK_FILE (a spec.md), GEMSTACK_RESULT.
vim.opt.runtimepath:prepend(os.getenv("GEMSTACK_PLUGIN"))
vim.opt.swapfile = false
vim.cmd("filetype on")
local messages = {}
local real_notify = vim.notify
vim.notify = function(msg, level)
  table.insert(messages, { message = tostring(msg), level = level })
  -- Shown too, as a user would see it: an error message raised inside an autocommand would
  -- turn into an exception with a stack trace (caught below as the edit's error).
  real_notify(msg, level)
end
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    vim.schedule(function()
      require("gemstack").setup({})
      local edited, edit_error = pcall(vim.cmd, "edit " .. vim.fn.fnameescape(os.getenv("GEMSTACK_FILE")))
      vim.wait(3000, function()
        for _, m in ipairs(messages) do
          if m.message:find("was not found", 1, true) then
            return true
          end
        end
        return false
      end, 20)
      local f = assert(io.open(os.getenv("GEMSTACK_RESULT"), "w"))
      f:write(vim.json.encode({ messages = messages, edit_error = (not edited) and tostring(edit_error) or vim.NIL }))
      f:close()
      vim.cmd("qall!")
    end)
  end,
})
