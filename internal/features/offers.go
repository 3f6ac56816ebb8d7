package features

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/leanreview/lreview-lsp/internal/anchor"
	"github.com/leanreview/lreview-lsp/internal/exchange"
	"github.com/leanreview/lreview-lsp/internal/worktree"
)

// Offers come in three families:
//
//   - fixes: every fix of every diagnostic the request is about, from the
//     analysis itself (the diagnostic's fixes, never its message);
//   - fix-all: the fixes that need no choice, all at once;
//   - rewrites: editing actions (dismiss, restore, reactivate, reply,
//     re-anchor, comment on a diff line) wherever the cursor is, because
//     a person chooses them, not because something is wrong. The one
//     exception is an action that settles a reported problem of its
//     comment (reactivating an orphaned comment that resolves again,
//     re-anchoring a stale one, dismissing a comment whose anchor broke,
//     or whose suggestion the working tree holds): that is a fix of that
//     diagnostic, so that editors list it with the problem.

// OfferKind is the family of an Offer.
type OfferKind int

const (
	// OfferFix settles the diagnostics it lists.
	OfferFix OfferKind = iota
	// OfferRewrite changes the review by a person's choice.
	OfferRewrite
	// OfferFixAll applies every fix that needs no choice.
	OfferFixAll
)

// OfferQuery is one request for actions on the range Start–End.
type OfferQuery struct {
	Start, End int
	// Fixes, Rewrites and FixAll are the families asked for.
	Fixes, Rewrites, FixAll bool
	// Bulb: no family was named (an editor's light bulb). Fix-all is then
	// offered only beside a diagnostic it fixes, and not when it is the
	// one fix already listed there; named by family (on save, a source
	// menu) it is always offered.
	Bulb bool
	// Disabled are the codes the user silenced: what the user sees is
	// what gets fixed.
	Disabled []string
	// Named reports whether the editor's request names d (a diagnostic it
	// shows, of the same code and range); nil names none.
	Named func(d exchange.Diagnostic) bool
	// Tree is the working tree, or nil: with one, the comments whose
	// suggestion it holds offer their dismissal as a fix.
	Tree *worktree.Tree
	Opts ActionOptions
}

// Offer is one action offered: its edits of the document, and for a fix
// the diagnostics it settles.
type Offer struct {
	Title     string
	Kind      OfferKind
	Edits     []exchange.Edit
	Resolves  []exchange.Diagnostic
	Preferred bool
	// Cursor is the body the action writes empty, for the person to type,
	// or nil.
	Cursor *BodyCursor
}

// Offers are the actions of q on a, in the order an editor lists them:
// the preferred fixes first, then the other fixes and rewrites in the
// document's order, fix-all, and the fixes the working tree calls for.
// One change reached two ways (the same fix of two diagnostics, an
// editing action that is a fix) is offered once.
func Offers(an *anchor.Analysis, q OfferQuery) []Offer {
	visible := VisibleDiagnostics(an.Diagnostics, q.Disabled)
	targets := targetDiagnostics(visible, q)
	if q.Fixes {
		targets = withComment(targets, commentDiagnostics(an, visible, q.Start))
	}
	out := []Offer{}
	offered := map[string]bool{} // by editsKey
	if q.Fixes {
		out = diagnosticFixes(out, targets, offered)
	}
	if q.Fixes || q.Rewrites {
		out = rewrites(out, an, q, offered)
	}
	// The preferred fix first: an editor that shows the list without the
	// flag (or selects its first item) still proposes it.
	slices.SortStableFunc(out, func(x, y Offer) int {
		return cmp.Compare(preferredRank(x.Preferred), preferredRank(y.Preferred))
	})
	if o, ok := fixAll(an, q, visible, targets, offered); ok {
		out = append(out, o)
	}
	return appliedFixes(out, an, q)
}

// VisibleDiagnostics are ds without the codes the user disabled.
func VisibleDiagnostics(ds []exchange.Diagnostic, disabled []string) []exchange.Diagnostic {
	if len(disabled) == 0 {
		return ds
	}
	out := make([]exchange.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if !slices.Contains(disabled, d.Code) {
			out = append(out, d)
		}
	}
	return out
}

// diagnosticFixes appends the fixes of the target diagnostics. A fix
// whose edits an earlier one has already (the same dismiss offered by two
// diagnostics of one comment) is not listed again: the diagnostic joins
// the earlier offer's list instead.
func diagnosticFixes(out []Offer, targets []exchange.Diagnostic, offered map[string]bool) []Offer {
	at := map[string]int{}
	for _, d := range targets {
		for _, f := range d.Fixes {
			key := editsKey(f.Edits)
			if i, ok := at[key]; ok {
				if !slices.ContainsFunc(out[i].Resolves, func(x exchange.Diagnostic) bool { return x.Range == d.Range && x.Code == d.Code }) {
					out[i].Resolves = append(out[i].Resolves, d)
				}
				out[i].Preferred = out[i].Preferred || f.Preferred
				continue
			}
			at[key] = len(out)
			offered[key] = true
			out = append(out, Offer{Title: f.Title, Kind: OfferFix, Edits: f.Edits, Resolves: []exchange.Diagnostic{d}, Preferred: f.Preferred})
		}
	}
	return out
}

// rewrites appends the editing actions at the cursor that no fix has
// offered already. One that settles a diagnostic of its comment is a fix
// of it, when fixes are asked for and its code is not silenced; asked for
// rewrites only, it is still a rewrite the person may want.
func rewrites(out []Offer, an *anchor.Analysis, q OfferQuery, offered map[string]bool) []Offer {
	for _, act := range actionsAt(an, q.Start, q.End, q.Opts) {
		key := editsKey(act.Edits)
		if offered[key] {
			continue
		}
		o := Offer{Title: act.Title, Kind: OfferRewrite, Edits: act.Edits, Cursor: act.Cursor}
		if d := act.Resolves; d != nil && q.Fixes && !slices.Contains(q.Disabled, d.Code) {
			o.Kind, o.Resolves = OfferFix, []exchange.Diagnostic{*d}
		}
		if o.Kind == OfferFix && q.Fixes || o.Kind == OfferRewrite && q.Rewrites {
			out = append(out, o)
			offered[key] = true
		}
	}
	return out
}

// fixAll is the fix-all offer of q, if any. A document with syntax errors
// gets none, as `lreview-lsp fix` refuses it: its structure is a guess,
// and fixing all at once (on save, unseen) must never lose data. Silenced
// codes are left alone.
func fixAll(an *anchor.Analysis, q OfferQuery, visible, targets []exchange.Diagnostic, offered map[string]bool) (Offer, bool) {
	if !q.FixAll || len(an.Doc.Syntax) > 0 {
		return Offer{}, false
	}
	shown := *an
	shown.Diagnostics = visible
	edits, applied := anchor.SafeEdits(&shown)
	if len(edits) == 0 || q.Bulb && (!fixesAny(applied, targets) || offered[editsKey(edits)]) {
		return Offer{}, false
	}
	return Offer{Title: FixAllTitle(applied), Kind: OfferFixAll, Edits: edits}, true
}

// appliedFixes appends the fixes of the suggestion-applied diagnostics of
// the comments q touches (appliedActions). The plain "Dismiss c2" of the
// same edit gives way to the fix, so that one change is listed once.
func appliedFixes(out []Offer, an *anchor.Analysis, q OfferQuery) []Offer {
	if !q.Fixes || q.Tree == nil || slices.Contains(q.Disabled, CodeSuggestionApplied) {
		return out
	}
	for _, act := range appliedActions(an, q.Tree, q.Start, q.End, q.Opts) {
		key := editsKey(act.Edits)
		out = slices.DeleteFunc(out, func(o Offer) bool { return o.Kind == OfferRewrite && editsKey(o.Edits) == key })
		out = append(out, Offer{Title: act.Title, Kind: OfferFix, Edits: act.Edits, Resolves: []exchange.Diagnostic{*act.Resolves}, Preferred: act.Preferred, Cursor: act.Cursor})
	}
	return out
}

// targetDiagnostics picks the diagnostics whose fixes the request is
// about. Those the request names, when it names any that match (the
// editor may send diagnostics of an older version, or of other
// servers); otherwise every diagnostic that touches the range does.
func targetDiagnostics(ds []exchange.Diagnostic, q OfferQuery) []exchange.Diagnostic {
	var named, touching []exchange.Diagnostic
	for _, d := range ds {
		if len(d.Fixes) == 0 {
			continue
		}
		if q.Named != nil && q.Named(d) {
			named = append(named, d)
		}
		if d.Range.Start <= q.End && q.Start <= d.Range.End {
			touching = append(touching, d)
		}
	}
	if len(named) > 0 {
		return named
	}
	return touching
}

// withComment adds to targets the diagnostics of the comment the cursor
// is in (with fixes) that it lacks, and orders them as the document does:
// one change that fixes two of them is titled by the first, wherever the
// cursor is.
func withComment(targets, comment []exchange.Diagnostic) []exchange.Diagnostic {
	for _, d := range comment {
		if len(d.Fixes) > 0 && !slices.ContainsFunc(targets, func(t exchange.Diagnostic) bool { return t.Code == d.Code && t.Range == d.Range }) {
			targets = append(targets, d)
		}
	}
	slices.SortStableFunc(targets, func(x, y exchange.Diagnostic) int {
		return cmp.Or(cmp.Compare(x.Range.Start, y.Range.Start), cmp.Compare(x.Range.End, y.Range.End))
	})
	return targets
}

func preferredRank(preferred bool) int {
	if preferred {
		return 0
	}
	return 1
}

// fixesAny reports whether the safe fixes applied include one of the
// target diagnostics' (SafeEdits reports each by its diagnostic's code and
// start).
func fixesAny(applied []anchor.Applied, targets []exchange.Diagnostic) bool {
	for _, ap := range applied {
		for _, d := range targets {
			if ap.Code == d.Code && ap.Offset == d.Range.Start {
				return true
			}
		}
	}
	return false
}

// editsKey identifies a list of edits, to recognise the same change
// reached two ways.
func editsKey(edits []exchange.Edit) string {
	return fmt.Sprint(edits)
}
