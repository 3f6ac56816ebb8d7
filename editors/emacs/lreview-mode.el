;;; lreview-mode.el --- Review exchange files, with lreview-lsp through eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "29.1"))
;; Keywords: languages, tools, vc
;; URL: https://github.com/leanreview/lreview-lsp

;;; Commentary:

;; A major mode for review exchange files (*.review.json): one JSON
;; document holding a unified diff and the review comments anchored to it.
;; It derives from `json-ts-mode' when the tree-sitter JSON grammar is
;; installed, else from `js-json-mode', and colours the patch lines with
;; the faces of `diff-mode'.  Eglot runs the language server lreview-lsp
;; for it: anchoring diagnostics through Flymake, quick fixes
;; (`eglot-code-actions': the preferred fix is the default), hover,
;; imenu, inlay hints and formatting.
;;
;; Install the server with Go 1.26 or newer from a checkout of lreview-lsp:
;;
;;     go install ./cmd/lreview-lsp
;;
;; (or, once the module is published, `go install
;; github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest'), then:
;;
;;     (add-to-list 'load-path "~/src/lreview-lsp/editors/emacs")
;;     (require 'lreview-mode)
;;     (add-hook 'lreview-mode-hook #'eglot-ensure)

;;; Code:

(require 'diff-mode)                    ; the faces of patch lines
(require 'js)                           ; js-json-mode
(require 'treesit nil t)

(defvar eglot-server-programs)

(defgroup lreview nil
  "Review exchange files and the lreview-lsp language server."
  :group 'languages
  :prefix "lreview-")

(defcustom lreview-server-command '("lreview-lsp" "--stdio")
  "The command eglot runs for `lreview-mode': the server and its arguments.
Put an absolute path first when lreview-lsp is not on `exec-path'."
  :type '(repeat string))

(defconst lreview-install-instructions
  "Install it with Go 1.26 or newer, from a checkout of lreview-lsp:
  go install ./cmd/lreview-lsp
or, once the module is published:
  go install github.com/leanreview/lreview-lsp/cmd/lreview-lsp@latest
then add its folder (go install puts it in ~/go/bin) to `exec-path',
or set `lreview-server-command' to its path."
  "How to install the server, shown when it is not found.")

(defun lreview--use-tree-sitter-p ()
  "Whether `json-ts-mode' can run: tree-sitter and its JSON grammar."
  ;; The grammar is asked first: loading json-ts-mode without it warns.
  (and (fboundp 'treesit-available-p) (treesit-available-p)
       (treesit-language-available-p 'json)
       (require 'json-ts-mode nil t)
       (fboundp 'json-ts-mode)))

;; The parent is chosen once, when this file loads: a grammar installed
;; later takes effect in a new session.
(defalias 'lreview--parent-mode
  (if (lreview--use-tree-sitter-p) #'json-ts-mode #'js-json-mode)
  "The mode `lreview-mode' derives from.")

(defun lreview--string-line (prefix)
  "A font-lock regexp for a JSON string element whose text starts with PREFIX.
Group 1 is the text inside the quotes, escapes included."
  (concat "^[ \t]*\"\\(" prefix "\\(?:[^\"\\\n]\\|\\\\.\\)*\\)\""))

(defconst lreview-font-lock-keywords
  `((,(lreview--string-line "\\+") 1 'diff-added t)
    (,(lreview--string-line "-") 1 'diff-removed t)
    (,(lreview--string-line "\\\\\\\\ ") 1 'diff-context t)
    (,(lreview--string-line "@@ ") 1 'diff-hunk-header t)
    (,(lreview--string-line "\\(?:diff --git \\|index \\|--- \\|\\+\\+\\+ \\|new file mode\\|deleted file mode\\|similarity index\\|rename \\|old mode\\|new mode\\)")
     1 'diff-header t))
  "Diff faces on the patch elements, one diff line per JSON string.
Font-lock applies every rule in turn and a later one overrides, so the
file headers come last: \"--- a/…\" is a header, not a removed line.")

;;;###autoload
(define-derived-mode lreview-mode lreview--parent-mode "lreview"
  "Major mode for review exchange files (*.review.json).
JSON editing from the parent mode, diff colours on the patch lines, and
the lreview-lsp language server through eglot (`eglot-server-programs'
is set up when eglot loads).
\\{lreview-mode-map}"
  (font-lock-add-keywords nil lreview-font-lock-keywords 'append))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.review\\.json\\'" . lreview-mode))

;; A *.json file whose first member is leanreview_review is a review too.
;;;###autoload
(add-to-list 'magic-mode-alist '("\\`[ \t\n\r]*{[ \t\n\r]*\"leanreview_review\"" . lreview-mode))

(defun lreview-server-contact (&optional _interactive)
  "The eglot contact for lreview-lsp: `lreview-server-command'.
Signals a `user-error' saying how to install the server when it is not
found, rather than eglot's generic failure."
  (let ((exe (car lreview-server-command)))
    (unless (and exe (executable-find exe))
      (user-error "lreview: the language server `%s' was not found.\n%s"
                  exe lreview-install-instructions))
    lreview-server-command))

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(lreview-mode . lreview-server-contact)))

(provide 'lreview-mode)
;;; lreview-mode.el ends here
