// Hues and Cues in the board app: 16 rows A–P by 30 columns, every cell named; the cones
// (a ring for a second cone), the frame, the cue giver's card, the cell chosen. A tap on a
// cell chooses it; Confirm makes the cone final.
'use strict';

(function () {
  const U = 10; // a cell, in the board's units
  const M = 8; // the margin holding the row letters and column numbers
  const CONE = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6',
    '#808000', '#000075', '#9a6324'];

  function ink(hex) { // black or white, whichever reads on a colour
    const n = parseInt(hex.slice(1), 16);
    const l = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
    return l > 140 ? '#111' : '#fff';
  }
  function name(view, cell) {
    return view.rows[Math.floor(cell / view.columns)] + (cell % view.columns + 1);
  }
  function xy(view, cell) {
    return [M + (cell % view.columns) * U, M + Math.floor(cell / view.columns) * U];
  }

  const drawer = {
    unit: U,
    size(view) { return { w: M + view.columns * U + 2, h: M + view.rows.length * U + 2 }; },

    draw(view, svg, h) {
      const taken = new Set(view.taken);
      for (let r = 0; r < view.rows.length; r++) {
        h.el('text', { x: M / 2, y: M + r * U + U * 0.68, 'font-size': 5, 'text-anchor': 'middle', fill: 'currentColor' }, svg).textContent = view.rows[r];
      }
      for (let c = 0; c < view.columns; c++) {
        h.el('text', { x: M + c * U + U / 2, y: M * 0.7, 'font-size': 4.2, 'text-anchor': 'middle', fill: 'currentColor' }, svg).textContent = String(c + 1);
      }
      view.colours.forEach((colour, cell) => {
        const [x, y] = xy(view, cell);
        h.el('rect', { x, y, width: U, height: U, fill: colour }, svg);
        const label = h.el('text', { x: x + U / 2, y: y + U * 0.64, 'font-size': 3.2, 'text-anchor': 'middle', fill: ink(colour), class: 'label' }, svg);
        label.textContent = name(view, cell);
        if (taken.has(cell)) h.el('path', { d: `M${x + 1} ${y + 1}L${x + U - 1} ${y + U - 1}M${x + U - 1} ${y + 1}L${x + 1} ${y + U - 1}`, stroke: ink(colour), 'stroke-width': 0.6 }, svg);
      });
      view.card.forEach((cell, i) => {
        const [x, y] = xy(view, cell);
        h.el('rect', { x: x + 0.5, y: y + 0.5, width: U - 1, height: U - 1, fill: 'none', stroke: ink(view.colours[cell]), 'stroke-width': 0.8, 'stroke-dasharray': '1.5 1' }, svg);
        h.el('text', { x: x + U - 2, y: y + 3, 'font-size': 3, fill: ink(view.colours[cell]), 'font-weight': 700 }, svg).textContent = String(i + 1);
      });
      if (view.frame !== null) {
        const [x, y] = xy(view, view.frame);
        h.el('rect', { x: x - U, y: y - U, width: 3 * U, height: 3 * U, fill: 'none', stroke: '#fff', 'stroke-width': 1.6 }, svg);
        h.el('rect', { x: x - U, y: y - U, width: 3 * U, height: 3 * U, fill: 'none', stroke: '#000', 'stroke-width': 0.7 }, svg);
      }
      for (const cone of view.cones) {
        const [x, y] = xy(view, cone.cell);
        const colour = CONE[cone.seat % CONE.length];
        const shift = cone.second ? 1.5 : -1.5;
        h.el('circle', { cx: x + U / 2 + shift, cy: y + U / 2, r: 2.6, fill: cone.second ? '#fff' : colour, stroke: cone.second ? colour : '#fff', 'stroke-width': cone.second ? 1.2 : 0.6 }, svg);
        h.el('text', { x: x + U / 2 + shift, y: y + U / 2 + 1.1, 'font-size': 3, 'text-anchor': 'middle', fill: cone.second ? colour : '#fff', 'font-weight': 700 }, svg).textContent = String(cone.seat + 1);
      }
      if (view.choice !== null) {
        const [x, y] = xy(view, view.choice);
        h.el('rect', { x: x - 0.6, y: y - 0.6, width: U + 1.2, height: U + 1.2, fill: 'none', stroke: '#fff', 'stroke-width': 1.4 }, svg);
        h.el('rect', { x: x - 0.6, y: y - 0.6, width: U + 1.2, height: U + 1.2, fill: 'none', stroke: '#000', 'stroke-width': 0.6, 'stroke-dasharray': '1.2 1.2' }, svg);
      }
    },

    tap(view, x, y) {
      if (!view.can) return null;
      const c = Math.floor((x - M) / U);
      const r = Math.floor((y - M) / U);
      if (c < 0 || r < 0 || c >= view.columns || r >= view.rows.length) return null;
      return { do: 'cell', cell: r * view.columns + c };
    },

    bar(view, bar, h) {
      if (view.choice === null) return;
      const pick = h.html('div', 'pick');
      const grid = h.html('div', 'closeup');
      const r0 = Math.floor(view.choice / view.columns);
      const c0 = view.choice % view.columns;
      for (let r = r0 - 1; r <= r0 + 1; r++) {
        for (let c = c0 - 1; c <= c0 + 1; c++) {
          const cell = h.html('div', r === r0 && c === c0 ? 'mid' : '');
          const inside = r >= 0 && c >= 0 && r < view.rows.length && c < view.columns;
          cell.style.background = inside ? view.colours[r * view.columns + c] : 'transparent';
          grid.appendChild(cell);
        }
      }
      const swatch = h.html('div', 'swatch');
      swatch.style.background = view.colours[view.choice];
      pick.append(swatch, grid, h.html('b', '', name(view, view.choice)));
      bar.appendChild(pick);
      if (view.confirm) {
        const ok = h.html('button', 'act', view.words.confirm);
        ok.type = 'button';
        ok.id = 'confirm';
        ok.addEventListener('click', () => { ok.disabled = true; h.tap({ do: 'confirm' }); });
        bar.appendChild(ok);
      }
    },
  };
  window.BoardApp.register('huescues', drawer);
})();
