; extends
; Gemstack's fenced blocks (```gemstack-contracts, ```gemstack-test-matrix, ...) hold JSON:
; highlight them with the json parser (nvim-treesitter's, or any parser/json.so on the
; runtimepath). Markdown's own query still tries the info string as a language name, which
; names no parser here, so this is the only injection that takes effect.
((fenced_code_block
  (info_string
    (language) @_gemstack_lang)
  (code_fence_content) @injection.content)
  (#lua-match? @_gemstack_lang "^gemstack%-")
  (#set! injection.language "json"))
