// Diff colours as rendered: the computed text colour of the span that shows a patch line and the
// background of the line's decorations, in each default theme. A removed line must look unlike a
// context line and unlike a plain string, an added line unlike a removed one, a hunk header unlike
// a plain string.

import { fail, setUserSettings, until } from './ui.mjs';

/** What to measure: the line (by its start) and the text of the span inside it. */
const TARGETS = {
  removed: { line: '"-    result := calculate(input)"', span: '-    result := calculate' },
  added: { line: '"+    result, err := calculate(input)"', span: '+    result, err' },
  context: { line: '"     ctx := context.Background()"', span: '     ctx := context' },
  hunk: { line: '"@@ -70,4 +70,5 @@', span: '@@ -70,4 +70,5 @@' },
  header: { line: '"--- a/internal/api/handler.go"', span: '--- a/internal' },
  string: { line: '"title"', span: 'auth refactor' },
};

/** measure runs in the page: colour and line background of each target. */
function measure(targets) {
  const lines = [...document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')];
  const overlays = [...document.querySelectorAll('.editor-instance .monaco-editor .view-overlays > div')];
  const out = {};
  for (const [name, t] of Object.entries(targets)) {
    const line = lines.find((l) => l.textContent.replace(/\u00a0/g, ' ').includes(t.line));
    if (!line) {
      out[name] = { missing: lines.map((l) => l.textContent.replace(/\u00a0/g, ' ').trim()).filter((l) => l.includes(t.span.slice(0, 6))) };
      continue;
    }
    // The span that renders the first character of t.span (tokens may split it further).
    const at = line.textContent.replace(/\u00a0/g, ' ').indexOf(t.span);
    let pos = 0;
    const span = [...line.querySelectorAll('span > span')].find((s) => {
      const end = pos + s.textContent.length;
      const hit = at >= pos && at < end;
      pos = end;
      return hit;
    });
    const overlay = overlays.find((o) => o.style.top === line.style.top);
    const backgrounds = overlay
      ? [...overlay.children]
          .filter((c) => !c.classList.contains('current-line') && !c.classList.contains('cigr') && !c.classList.contains('core-guide'))
          .map((c) => getComputedStyle(c).backgroundColor)
          .filter((b) => b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent')
      : [];
    out[name] = { color: span ? getComputedStyle(span).color : null, background: backgrounds.join(' ') || 'none' };
  }
  const bg = document.querySelector('.editor-instance .monaco-editor-background');
  out.editorBackground = bg ? getComputedStyle(bg).backgroundColor : null;
  return out;
}

/** rgb parses a computed CSS colour "rgb(r, g, b)" or "rgba(r, g, b, a)". */
function rgb(css) {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** contrast is the WCAG contrast ratio of two colours. */
export function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** MIN_CONTRAST: every diff colour stays readable on the editor background (WCAG large text). */
const MIN_CONTRAST = 3;

function themeCheck(name, theme, bodyClass, wantBackgrounds) {
  return {
    name: `diff-colours-${name}`,
    run: async ({ page, shot, userSettings }) => {
      await setUserSettings(page, userSettings(theme));
      await until(page, `the workbench in ${theme}`, (cls) => {
        const wb = document.querySelector('.monaco-workbench');
        return { ok: wb !== null && wb.classList.contains(cls), value: wb?.className };
      }, bodyClass);
      // Colours arrive with the semantic tokens: wait until removed and context lines differ.
      let seen;
      try {
        seen = await until(page, 'removed and context lines to be coloured differently', (targets) => {
          // eslint-disable-next-line no-new-func
          const m = new Function(`return (${targets.measure})`)()(targets.t);
          const ok = m.removed && m.context && m.removed.color && m.removed.color !== m.context.color;
          return { ok, value: m };
        }, { measure: measure.toString(), t: TARGETS });
      } finally {
        await shot(`colours-${name}`);
      }
      const problems = [];
      const differ = (a, b, what) => {
        if (!seen[a] || !seen[b]) problems.push(`no rendered ${!seen[a] ? a : b} line`);
        else if (seen[a][what] === seen[b][what]) problems.push(`${a} and ${b} lines have the same ${what} ${seen[a][what]}`);
      };
      differ('removed', 'context', 'color');
      differ('removed', 'string', 'color');
      differ('added', 'removed', 'color');
      differ('hunk', 'string', 'color');
      differ('header', 'string', 'color');
      const bg = rgb(seen.editorBackground);
      for (const name of Object.keys(TARGETS)) {
        const fg = rgb(seen[name]?.color);
        if (!fg || !bg) continue;
        const ratio = contrast(fg, bg);
        if (ratio < MIN_CONTRAST) {
          problems.push(`${name} lines are hard to read: ${seen[name].color} on ${seen.editorBackground} has contrast ${ratio.toFixed(2)}, want >= ${MIN_CONTRAST}`);
        }
      }
      if (wantBackgrounds) {
        differ('removed', 'context', 'background');
        differ('added', 'context', 'background');
        differ('added', 'removed', 'background');
      }
      if (problems.length > 0) fail(`${theme}: ${problems.join('; ')}; measured ${JSON.stringify(seen)}`);
    },
  };
}

export const colourChecks = [
  themeCheck('light', 'Default Light Modern', 'vs', true),
  themeCheck('high-contrast', 'Default High Contrast', 'hc-black', false),
  themeCheck('dark', 'Default Dark Modern', 'vs-dark', true),
];
