;;; harness_common.el --- What the Emacs (eglot) batch harnesses share  -*- lexical-binding: t -*-
;;
;; Loaded first by harness.el and authoring.el (next to this file):
;;
;;   (load (expand-file-name "harness_common.el" (file-name-directory load-file-name)) nil t)
;;
;; The environment (GEMSTACK_REPO, GEMSTACK_RESULT, GEMSTACK_TIMEOUT_S), the result alist
;; written as JSON to GEMSTACK_RESULT, timed waits recorded as steps, Emacs set up as a Debian
;; user's with the documented snippet (GEMSTACK_SNIPPET), and the tail that runs a scenario:
;; exit 0 when every step finished, 1 when a wait timed out, 2 when the harness failed.

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

(defun gemstack-harness--start-emacs ()
  "What a Debian user's Emacs does at start-up (Emacs -Q skips it): find the packages that
apt installed (elpa-eglot, elpa-markdown-mode), then read the user's init (the snippet).
eglot's questions are answered yes, as a user would, and kept in `prompts'."
  (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa"))
  (package-initialize)
  (setq make-backup-files nil create-lockfiles nil)
  (load (gemstack-harness--env "GEMSTACK_SNIPPET") nil t)
  (advice-add 'y-or-n-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (advice-add 'yes-or-no-p :around
              (lambda (_orig prompt &rest _) (gemstack-harness--push 'prompts prompt) t))
  (gemstack-harness--put 'emacs emacs-version))

(defun gemstack-harness-run (scenario)
  "Run SCENARIO, write the results (with the *Messages* buffer) and exit: 0 when every step
finished, 1 when a wait timed out, 2 when SCENARIO signalled an error."
  (let ((code 0))
    (condition-case err
        (progn (funcall scenario)
               (when (alist-get 'timeouts gemstack-harness-R) (setq code 1)))
      (error (gemstack-harness--put 'error (error-message-string err)) (setq code 2)))
    (gemstack-harness--put 'messages
                           (with-current-buffer (messages-buffer)
                             (buffer-substring-no-properties (point-min) (point-max))))
    (gemstack-harness--put 'total_ms (gemstack-harness--ms))
    (gemstack-harness--write)
    (kill-emacs code)))

;;; harness_common.el ends here
