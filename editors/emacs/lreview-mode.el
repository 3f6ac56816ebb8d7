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

(require 'cl-lib)

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

;;; A body edited as Markdown

(declare-function eglot-current-server "eglot")
(declare-function eglot--TextDocumentPositionParams "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function jsonrpc-request "jsonrpc")
(declare-function markdown-mode "markdown-mode")

(defvar-local lreview--body nil
  "In a body buffer: (SERVER URI COMMENT REPLY REVIEW), as lreview.editBody said.
REVIEW is the review's buffer.")

(defvar lreview-body-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-c") #'lreview-body-save)
    (define-key map [remap save-buffer] #'lreview-body-save)
    map)
  "Keys of a body buffer: saving writes the body back into the review.")

(define-minor-mode lreview-body-mode
  "A comment's or reply's body, edited as Markdown.
\\<lreview-body-mode-map>\\[lreview-body-save] writes it back into the review."
  :lighter " lreview-body")

(defun lreview-edit-body ()
  "Edit the body of the comment or reply at point as Markdown.
The body opens unescaped in a buffer of its own (in `markdown-mode'
when installed); \\<lreview-body-mode-map>\\[lreview-body-save] writes it back into the
review as one JSON string, escaped by the server (its commands
lreview.editBody and lreview.setBody), nothing else of the review
changed."
  (interactive)
  (let* ((server (or (eglot-current-server)
                     (user-error "lreview: no language server for this buffer (M-x eglot)")))
         (review (current-buffer))
         ;; The server reads the review as eglot last sent it: send what
         ;; is pending first (eglot sends changes when idle).
         (_ (eglot--signal-textDocument/didChange))
         (params (eglot--TextDocumentPositionParams))
         (uri (plist-get (plist-get params :textDocument) :uri))
         (res (jsonrpc-request server :workspace/executeCommand
                               `(:command "lreview.editBody"
                                 :arguments [,uri ,(plist-get params :position)])))
         (comment (plist-get res :comment))
         (reply (plist-get res :reply)))
    (lreview--open-body server uri comment reply review (plist-get res :text))))

(defun lreview--open-body (server uri comment reply review text)
  "Open the body at (COMMENT REPLY) of the review at URI, holding TEXT.
SERVER is the review's server; REVIEW its buffer, or nil."
  (let ((buf (generate-new-buffer
              (format "*lreview %s %s*" comment
                      (if (>= reply 0) (format "reply %d" (1+ reply)) "body")))))
    (with-current-buffer buf
      (insert text)
      (if (fboundp 'markdown-mode) (markdown-mode) (text-mode))
      (setq lreview--body (list server uri comment reply review))
      (lreview-body-mode 1)
      (set-buffer-modified-p nil)
      (goto-char (point-min)))
    (pop-to-buffer buf)))

(declare-function eglot-uri-to-path "eglot")

(defun lreview--show-body (server arguments)
  "The client side of lreview.showBody: open the new, empty body that
an action (\"Reply to c1\", \"Comment on RIGHT 72\") wrote, as Markdown.
ARGUMENTS are the review's URI, the comment and the reply's index."
  (let* ((uri (aref arguments 0))
         (path (ignore-errors (eglot-uri-to-path uri)))
         (review (and path (find-buffer-visiting path))))
    (lreview--open-body server uri (aref arguments 1) (aref arguments 2) review "")))

(defun lreview-body-save ()
  "Write the body buffer back into its review (lreview.setBody)."
  (interactive)
  (unless lreview--body
    (user-error "lreview: not a body buffer (M-x lreview-edit-body)"))
  (pcase-let ((`(,server ,uri ,comment ,reply ,review) lreview--body))
    (when (buffer-live-p review)
      (with-current-buffer review (eglot--signal-textDocument/didChange)))
    (jsonrpc-request server :workspace/executeCommand
                     `(:command "lreview.setBody"
                       :arguments [,uri ,comment ,reply
                                   ,(buffer-substring-no-properties (point-min) (point-max))]))
    (set-buffer-modified-p nil)
    (message "lreview: the body of %s is written back into the review%s" comment
             (if (and (buffer-live-p review) (buffer-modified-p review))
                 (format " (save %s to keep it)" (buffer-name review))
               ""))))

;; "Reply to c1" and "Comment on RIGHT 72" open their new body as
;; Markdown, as `lreview-edit-body' does: lreview.showBody runs here, not
;; on the server (which would put point between the review's quotes).
(with-eval-after-load 'eglot
  (if (fboundp 'eglot-execute)
      ;; Emacs 30: every command goes through `eglot-execute'.
      (cl-defmethod eglot-execute :around (server action)
        (let ((command (plist-get action :command)))
          (if (and (equal command "lreview.showBody") (not (plist-get action :edit)))
              (lreview--show-body server (plist-get action :arguments))
            (cl-call-next-method))))
    ;; Emacs 29: through `eglot-execute-command'.
    (cl-defmethod eglot-execute-command :around (server command arguments)
      (if (equal (format "%s" command) "lreview.showBody")
          (lreview--show-body server arguments)
        (cl-call-next-method)))))

;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(lreview-mode . lreview-server-contact)))

(provide 'lreview-mode)
;;; lreview-mode.el ends here
