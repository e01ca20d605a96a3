;;; authoring.el --- Emacs (eglot 1.9) in batch mode: the authoring features  -*- lexical-binding: t -*-
;;
;;   GEMSTACK_SNIPPET=/tmp/snippet.el GEMSTACK_REPO=/tmp/demo GEMSTACK_RESULT=/tmp/out.json \
;;     emacs --batch -Q -l tests/editors/authoring.el
;;
;; Loads the setup of docs/editors.md (GEMSTACK_SNIPPET), then does what a user does with
;; eglot's own commands, on a demo copy whose specs/009 is not frozen (the test clears the
;; phase hashes): the document highlight that eglot requests with eldoc, completion-at-point in
;; a new gemstack-contracts block, eglot-format (a region of specs/010's billable-actions block,
;; then the whole buffer) and eglot-rename of a 009 contract id, the buffers saved afterwards.
;; What the editor showed is written to GEMSTACK_RESULT as JSON; the test compares it (and the
;; files on disk) with what it computes itself. Exits 0 when every step finished, 1 when a wait
;; timed out, 2 when the harness failed.

(require 'cl-lib)
(require 'json)
(require 'package)

(defun gemstack-harness--env (name &optional default)
  (let ((v (getenv name)))
    (if (and v (not (string-empty-p v))) v
      (or default (error "harness: environment variable %s is required" name)))))

(defconst gemstack-harness-repo (file-name-as-directory (gemstack-harness--env "GEMSTACK_REPO")))
(defconst gemstack-harness-result (gemstack-harness--env "GEMSTACK_RESULT"))
(defconst gemstack-harness-timeout (string-to-number (gemstack-harness--env "GEMSTACK_TIMEOUT_S" "20")))
(defconst gemstack-harness-spec9 "specs/009-context-capsule/spec.md")
(defconst gemstack-harness-spec10 "specs/010-release-notes/spec.md")
(defconst gemstack-harness-highlight-id "zero-dependency-core")
(defconst gemstack-harness-rename-from "capsule-offline-deterministic")
(defconst gemstack-harness-rename-to "capsule-offline-repeatable")
(defconst gemstack-harness-spec8 "specs/008-cost-provider-safety-gates/spec.md")
(defconst gemstack-harness-frozen-from "upgrade-c-cost-states")

(defvar gemstack-harness-t0 (float-time))
(defvar gemstack-harness-R (list (cons 'steps nil) (cons 'timeouts nil) (cons 'prompts nil)))

(defun gemstack-harness--ms () (round (* 1000 (- (float-time) gemstack-harness-t0))))

(defun gemstack-harness--put (key value)
  (setf (alist-get key gemstack-harness-R) value))

(defun gemstack-harness--push (key value)
  (gemstack-harness--put key (append (alist-get key gemstack-harness-R) (list value))))

(defun gemstack-harness--write ()
  (with-temp-file gemstack-harness-result
    (let ((json-encoding-pretty-print nil))
      (insert (json-encode gemstack-harness-R)))))

(defun gemstack-harness--wait (name predicate)
  "Let timers and processes run until PREDICATE holds; record the step NAME."
  (let ((started (gemstack-harness--ms))
        (deadline (+ (float-time) gemstack-harness-timeout))
        ok)
    (while (and (not (setq ok (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (gemstack-harness--push 'steps (list (cons 'name name) (cons 'ok (if ok t :json-false))
                                         (cons 'ms (- (gemstack-harness--ms) started))))
    (unless ok (gemstack-harness--push 'timeouts name))
    ok))

(defun gemstack-harness--text ()
  (save-restriction (widen) (buffer-substring-no-properties (point-min) (point-max))))

(defun gemstack-harness--where (pos)
  "POS as (0-based line, character column)."
  (save-excursion (goto-char pos) (list (1- (line-number-at-pos pos)) (current-column))))

(defun gemstack-harness--open (rel)
  "Visit REL as a user would (the command loop runs post-command-hook, where eglot-ensure
connects) and wait for eglot."
  (find-file (expand-file-name rel gemstack-harness-repo))
  (run-hooks 'post-command-hook)
  (unless (gemstack-harness--wait (concat "connect " rel) (lambda () (eglot-current-server)))
    (error "eglot did not connect in %s" rel))
  (current-buffer))

(defun gemstack-harness--block (fence)
  "Line numbers (1-based) of FENCE's line and of its closing ``` line."
  (save-excursion
    (goto-char (point-min))
    (search-forward fence)
    (let ((first (line-number-at-pos)))
      (re-search-forward "^```$")
      (list first (line-number-at-pos)))))

(defun gemstack-harness--squeeze (fence)
  "FENCE's block body joined onto one line, its runs of blanks collapsed."
  (pcase-let ((`(,first ,close) (gemstack-harness--block fence)))
    (save-excursion
      (goto-char (point-min))
      (forward-line first)
      (let* ((beg (point))
             (end (progn (forward-line (- close first 1)) (1- (point))))
             (body (replace-regexp-in-string
                    "[ \t\n]+" " " (buffer-substring-no-properties beg end))))
        (delete-region beg end)
        (goto-char beg)
        (insert body)))))

(defun gemstack-harness--scenario ()
  (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
  (package-initialize)
  (setq make-backup-files nil create-lockfiles nil)
  (load (gemstack-harness--env "GEMSTACK_SNIPPET") nil t)
  (advice-add 'y-or-n-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (advice-add 'yes-or-no-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (gemstack-harness--put 'emacs emacs-version)
  (gemstack-harness--put 'eglot (package-desc-version (cadr (assq 'eglot package-alist))))
  (let ((spec9 (gemstack-harness--open gemstack-harness-spec9)))
    ;; Document highlight: eglot 1.9 asks for it along with the hover eldoc asks for (M-x eldoc).
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-highlight-id "\""))
    (goto-char (+ (match-beginning 0) 3))
    (gemstack-harness--put 'highlight_at (gemstack-harness--where (point)))
    (eldoc t)
    (gemstack-harness--wait "document highlight" (lambda () eglot--highlights))
    (gemstack-harness--put
     'highlight
     (mapcar (lambda (ov)
               (vconcat (gemstack-harness--where (overlay-start ov))
                        (list (cadr (gemstack-harness--where (overlay-end ov)))
                              (symbol-name (overlay-get ov 'face)))))
             (sort (copy-sequence eglot--highlights)
                   (lambda (a b) (< (overlay-start a) (overlay-start b))))))

    ;; Completion in a new gemstack-contracts block at the end: the candidates eglot's capf
    ;; offers after `"type": "`, then M-x completion-at-point after a typed prefix.
    (let ((before (gemstack-harness--text)))
      (goto-char (point-max))
      (insert "\n```gemstack-contracts\n[\n  {\"id\": \"x\", \"type\": \"")
      (let ((capf (eglot-completion-at-point)))
        (gemstack-harness--put
         'completion_labels
         (and capf (sort (all-completions (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                                          (nth 2 capf))
                         #'string<))))
      (insert "IDEN")
      (completion-at-point)
      (gemstack-harness--put 'completion_line
                             (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
      ;; Leave the buffer as it was (a didChange like any other edit).
      (erase-buffer)
      (insert before)
      (set-buffer-modified-p nil)
      ;; What eglot's idle timer does once the user stops typing (batch Emacs is never idle):
      ;; send the pending didChange. eglot-rename's request is not deferred, so without it the
      ;; server's edit carries the older version and eglot refuses it.
      (eglot--signal-textDocument/didChange))

    ;; Formatting in specs/010: both blocks squeezed; eglot-format on the billable-actions
    ;; line (what it does with an active region), written; then eglot-format-buffer.
    (gemstack-harness--open gemstack-harness-spec10)
    (gemstack-harness--squeeze "```gemstack-capabilities")
    (gemstack-harness--squeeze "```gemstack-billable-actions")
    (gemstack-harness--put 'squeezed (gemstack-harness--text))
    (pcase-let ((`(,first ,_close) (gemstack-harness--block "```gemstack-billable-actions")))
      (goto-char (point-min))
      (forward-line first)
      (eglot-format (line-beginning-position) (line-end-position)))
    (gemstack-harness--put 'range_formatted (gemstack-harness--text))
    (save-buffer)
    (gemstack-harness--put 'range_formatted_disk
                           (with-temp-buffer
                             (insert-file-contents (expand-file-name gemstack-harness-spec10 gemstack-harness-repo))
                             (buffer-string)))
    (gemstack-harness--squeeze "```gemstack-billable-actions")
    (gemstack-harness--put 'squeezed_again (gemstack-harness--text))
    (eglot-format-buffer)
    (gemstack-harness--put 'formatted (gemstack-harness--text))
    (save-buffer)

    ;; Rename: M-x eglot-rename on a 009 contract id; eglot visits the other files and asks
    ;; once (answered yes, kept in `prompts'); then C-x s saves every buffer.
    (switch-to-buffer spec9)
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-rename-from "\""))
    (goto-char (+ (match-beginning 0) 4))
    (eglot-rename gemstack-harness-rename-to)
    (gemstack-harness--put 'renamed_buffers
                           (sort (cl-loop for b in (buffer-list)
                                          when (and (buffer-file-name b) (buffer-modified-p b))
                                          collect (file-relative-name (buffer-file-name b)
                                                                      gemstack-harness-repo))
                                 #'string<))
    (save-some-buffers t)
    ;; A rename of a contract of the frozen 008 spec: what eglot says, and the buffer after.
    (gemstack-harness--open gemstack-harness-spec8)
    (goto-char (point-min))
    (search-forward (concat "\"" gemstack-harness-frozen-from "\""))
    (goto-char (+ (match-beginning 0) 4))
    (condition-case err
        (progn (eglot-rename "upgrade-c-states") (gemstack-harness--put 'frozen_error nil))
      (error (gemstack-harness--put 'frozen_error (error-message-string err))))
    (gemstack-harness--put 'frozen_modified (if (buffer-modified-p) t :json-false))
    (dolist (server (hash-table-values eglot--servers-by-project))
      (dolist (s server) (ignore-errors (eglot-shutdown s))))))

(let ((code 0))
  (condition-case err
      (progn (gemstack-harness--scenario)
             (when (alist-get 'timeouts gemstack-harness-R) (setq code 1)))
    (error (gemstack-harness--put 'error (error-message-string err)) (setq code 2)))
  (gemstack-harness--put 'messages
                         (with-current-buffer (messages-buffer)
                           (buffer-substring-no-properties (point-min) (point-max))))
  (gemstack-harness--put 'total_ms (gemstack-harness--ms))
  (gemstack-harness--write)
  (kill-emacs code))

;;; authoring.el ends here
