// Wunchunk in the board app: the hexhex board, every cell named; stones in their seats'
// colours with the seat's number, the last turn's ringed, the turn being built dashed. On your
// turn: choose a colour, tap an empty cell to place a stone, tap a pending stone to change
// its colour (past the last colour it is taken back); Undo; End turn (or Pass).
'use strict';

(function () {
  const R = 1; // a hexagon's radius, in the board's units (its width is √3)
  const PAD = 1.2;
  let chosen = null; // the colour of the next stone (yours at first)

  function bounds(view) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of view.cells) {
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
    return { x0: x0 - PAD, y0: y0 - PAD, w: x1 - x0 + 2 * PAD, h: y1 - y0 + 2 * PAD };
  }
  function hexagon(x, y, r) {
    const points = [];
    for (const a of [-90, -30, 30, 90, 150, 210]) {
      const t = a * Math.PI / 180;
      points.push(`${(x + r * Math.cos(t)).toFixed(3)},${(y + r * Math.sin(t)).toFixed(3)}`);
    }
    return points.join(' ');
  }
  function ink(hex) {
    const n = parseInt(hex.slice(1), 16);
    return 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255) > 150 ? '#222' : '#fff';
  }

  const drawer = {
    unit: 1.7,
    size(view) { const b = bounds(view); return { w: b.w, h: b.h }; },

    draw(view, svg, h) {
      const b = bounds(view);
      const g = h.el('g', { transform: `translate(${-b.x0} ${-b.y0})` }, svg);
      const stones = new Map(view.stones.map(([cell, colour, mark]) => [cell, [colour, mark]]));
      view.cells.forEach(([x, y, name], cell) => {
        h.el('polygon', { points: hexagon(x, y, R * 0.97), fill: '#e2dccc', stroke: '#a09888', 'stroke-width': 0.04 }, g);
        const stone = stones.get(cell);
        if (!stone) {
          h.el('text', { x, y: y + 0.17, 'font-size': 0.46, 'text-anchor': 'middle', fill: '#6e6a60', class: 'label' }, g).textContent = name;
          return;
        }
        const [colour, mark] = stone;
        const fill = view.colours[colour] || '#888';
        h.el('circle', { cx: x, cy: y, r: 0.72, fill, stroke: mark === 'pending' ? '#111' : 'none', 'stroke-width': 0.09, 'stroke-dasharray': mark === 'pending' ? '0.2 0.12' : '' }, g);
        if (mark === 'last') h.el('circle', { cx: x, cy: y, r: 0.86, fill: 'none', stroke: '#111', 'stroke-width': 0.08 }, g);
        h.el('text', { x, y: y + 0.2, 'font-size': 0.6, 'text-anchor': 'middle', fill: ink(fill), 'font-weight': 700 }, g).textContent = String(colour + 1);
      });
      svg.dataset.x0 = b.x0;
      svg.dataset.y0 = b.y0;
    },

    tap(view, x, y) {
      if (view.can !== 'place') return null;
      const b = bounds(view);
      const px = x + b.x0;
      const py = y + b.y0;
      let best = null;
      let near = 0.9 * R;
      view.cells.forEach(([cx, cy], cell) => {
        const d = Math.hypot(cx - px, cy - py);
        if (d < near) { near = d; best = cell; }
      });
      if (best === null) return null;
      const stone = view.stones.find(([cell]) => cell === best);
      if (!stone) return { do: 'place', cell: best, colour: chosen === null ? view.own : chosen };
      if (stone[2] === 'pending') return { do: 'recolour', cell: best };
      return null; // a stone of an earlier turn stays
    },

    bar(view, bar, h) {
      if (view.can !== 'place') return;
      if (chosen === null || chosen >= view.colours.length) chosen = view.own;
      if (view.allotment > view.placed) {
        const palette = h.html('div', 'palette');
        view.colours.forEach((colour, i) => {
          const pick = h.html('button', '', String(i + 1));
          pick.type = 'button';
          pick.style.background = colour;
          pick.style.color = ink(colour);
          pick.setAttribute('aria-pressed', String(i === chosen));
          pick.setAttribute('aria-label', view.names[i] || String(i + 1));
          pick.addEventListener('click', () => {
            chosen = i;
            for (const other of palette.children) other.setAttribute('aria-pressed', String(other === pick));
          });
          palette.appendChild(pick);
        });
        bar.appendChild(palette);
      }
      bar.appendChild(h.html('span', 'note', `${view.placed} / ${view.allotment}`));
      const act = (label, move, id) => {
        const button = h.html('button', 'act', label);
        button.type = 'button';
        button.id = id;
        button.addEventListener('click', () => { button.disabled = true; h.tap(move); });
        bar.appendChild(button);
      };
      if (view.placed > 0) {
        act(view.words.undo, { do: 'undo' }, 'undo');
        act(view.words.end, { do: 'end' }, 'end');
      } else {
        act(view.words.pass, { do: 'end' }, 'end');
      }
    },
  };
  window.BoardApp.register('wunchunk', drawer);
})();
