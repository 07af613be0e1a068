// The board app: a seat's view of its room's board, zoomable, and taps sent as the game's
// presses. Each game draws its board with a script of its own (/app/games/<game>.js), which
// calls BoardApp.register(game, drawer). No framework: the page is a few kilobytes.
'use strict';

(function () {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const room = new URLSearchParams(location.search).get('r')
    || (tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param) || '';
  const userLang = ((tg && tg.initDataUnsafe && tg.initDataUnsafe.user
    && tg.initDataUnsafe.user.language_code) || navigator.language || 'en').slice(0, 2);
  // What the app says before (or without) the server: refused, unreachable.
  const WORDS = {
    en: ['Open the board from the bot\'s message again.', 'No connection; trying again…'],
    it: ['Riapri il tabellone dal messaggio del bot.', 'Nessuna connessione; riprovo…'],
    es: ['Vuelve a abrir el tablero desde el mensaje del bot.', 'Sin conexión; reintentando…'],
    fr: ['Rouvre le plateau depuis le message du bot.', 'Pas de connexion ; nouvel essai…'],
    de: ['Öffne das Spielbrett erneut über die Nachricht des Bots.', 'Keine Verbindung; neuer Versuch…'],
    pt: ['Abra o tabuleiro de novo pela mensagem do bot.', 'Sem conexão; tentando de novo…'],
    ru: ['Откройте поле заново из сообщения бота.', 'Нет связи; пробую снова…'],
  };
  const words = WORDS[userLang] || WORDS.en;
  const $ = (id) => document.getElementById(id);
  const state = { version: null, view: null, drawer: null, scale: 0, fitted: false, nonce: 0, gen: 0 };
  const drawers = {};
  const SVG = 'http://www.w3.org/2000/svg';

  function el(tag, attrs, parent) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function toast(text, alert) {
    const box = $('toast');
    if (!text) return;
    box.textContent = text;
    box.className = alert ? 'alert' : '';
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { box.hidden = true; }, alert ? 4000 : 2200);
  }

  async function call(path, body) {
    const answer = await fetch(path, {
      method: 'POST',
      headers: { Authorization: 'tma ' + (tg ? tg.initData : ''), 'Content-Type': 'application/json' },
      body: JSON.stringify({ room, ...body }),
    });
    if (answer.status === 401 || answer.status === 403) throw new Refused();
    if (!answer.ok) throw new Error(String(answer.status));
    return answer.json();
  }
  class Refused extends Error {}

  // ----- zoom and pan: the board's SVG is drawn at `scale` px per unit inside a scrolled box
  function size() {
    const svg = $('viewport').querySelector('svg');
    if (!svg || !state.drawer) return;
    const box = state.drawer.size(state.view);
    svg.setAttribute('width', Math.round(box.w * state.scale));
    svg.setAttribute('height', Math.round(box.h * state.scale));
    svg.classList.toggle('small-labels', state.scale * (state.drawer.unit || 10) < 34);
  }
  function fit() {
    const box = state.drawer.size(state.view);
    const port = $('viewport');
    state.scale = Math.min(port.clientWidth / box.w, port.clientHeight / box.h);
    state.fitted = true;
    size();
  }
  function zoom(factor, cx, cy) {
    const port = $('viewport');
    const rect = port.getBoundingClientRect();
    const px = cx === undefined ? port.clientWidth / 2 : cx - rect.left;
    const py = cy === undefined ? port.clientHeight / 2 : cy - rect.top;
    const box = state.drawer.size(state.view);
    const least = Math.min(port.clientWidth / box.w, port.clientHeight / box.h);
    const next = Math.max(least, Math.min(least * 8, state.scale * factor));
    const ratio = next / state.scale;
    const x = (port.scrollLeft + px) * ratio - px;
    const y = (port.scrollTop + py) * ratio - py;
    state.scale = next;
    size();
    port.scrollLeft = x;
    port.scrollTop = y;
  }
  $('zoom-in').addEventListener('click', () => zoom(1.5));
  $('zoom-out').addEventListener('click', () => zoom(1 / 1.5));
  let pinch = null;
  const port = $('viewport');
  const spread = (t) => Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY);
  port.addEventListener('touchstart', (e) => {
    if (e.touches.length === 2) pinch = spread(e.touches);
  }, { passive: true });
  port.addEventListener('touchmove', (e) => {
    if (e.touches.length !== 2 || !pinch) return;
    e.preventDefault();
    const now = spread(e.touches);
    zoom(now / pinch, (e.touches[0].clientX + e.touches[1].clientX) / 2,
      (e.touches[0].clientY + e.touches[1].clientY) / 2);
    pinch = now;
  }, { passive: false });
  port.addEventListener('touchend', () => { pinch = null; });
  port.addEventListener('wheel', (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });

  // ----- the view
  function render() {
    const view = state.view;
    $('text').textContent = view.text || '';
    const svg = el('svg', { viewBox: (() => { const b = state.drawer.size(view); return `0 0 ${b.w} ${b.h}`; })() });
    state.drawer.draw(view, svg, helpers);
    svg.addEventListener('click', (e) => {
      const point = svg.createSVGPoint();
      point.x = e.clientX; point.y = e.clientY;
      const at = point.matrixTransform(svg.getScreenCTM().inverse());
      const move = state.drawer.tap(state.view, at.x, at.y, helpers);
      if (move) tap(move);
    });
    port.replaceChildren(svg);
    if (!state.fitted) fit(); else size();
    const bar = $('bar');
    bar.replaceChildren();
    state.drawer.bar(view, bar, helpers);
    tick();
  }

  function tick() {
    const view = state.view;
    const clock = $('clock');
    if (!view || !view.deadline || !view.now) { clock.hidden = true; return; }
    const left = Math.max(0, Math.round(view.deadline - view.now - (Date.now() - state.seenAt) / 1000));
    clock.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
    clock.hidden = false;
  }
  setInterval(tick, 1000);

  // One tap at a time: the next is taken once the board shows what the last one did, and
  // the answer is shown with it.
  async function tap(move) {
    if (state.busy) return;
    state.busy = true;
    state.nonce += 1;
    const nonce = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}${state.nonce}`;
    if (tg && tg.HapticFeedback) tg.HapticFeedback.selectionChanged();
    let said = null;
    try {
      const answer = await call('/app/api/tap', { nonce, tap: move });
      const last = (answer.answers || []).slice(-1)[0];
      if (last) said = [last.text, last.alert];
      if (answer.over) said = [answer.text, true];
    } catch (error) {
      said = [error instanceof Refused ? words[0] : words[1], true];
    }
    try {
      await refresh(true);
    } finally {
      state.busy = false;
      if (said) toast(...said);
    }
  }

  let timer = null;
  async function refresh(now) {
    clearTimeout(timer);
    const gen = ++state.gen;
    try {
      const view = await call('/app/api/view', { since: now ? null : state.version });
      if (view.over) {
        state.version = null;
        $('text').textContent = view.text;
        $('bar').replaceChildren();
        return; // the game is over: nothing more to show
      }
      if (!view.same) {
        state.version = view.version;
        state.view = view;
        state.seenAt = Date.now();
        if (!state.drawer) await load(view.game);
        render();
      }
    } catch (error) {
      if (error instanceof Refused) { $('text').textContent = words[0]; return; }
      $('text').textContent = words[1];
    }
    if (gen === state.gen) timer = setTimeout(() => refresh(false), document.hidden ? 5000 : 1000);
  }

  function load(game) {
    if (drawers[game]) { state.drawer = drawers[game]; return Promise.resolve(); }
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = `/app/games/${encodeURIComponent(game)}.js`;
      script.onload = () => { state.drawer = drawers[game]; resolve(); };
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  const helpers = { el, html, tap, toast, zoomTo: zoom };
  window.BoardApp = { register(game, drawer) { drawers[game] = drawer; } };

  if (tg) {
    tg.ready();
    tg.expand();
    if (tg.disableVerticalSwipes) tg.disableVerticalSwipes();
  }
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(true); });
  window.addEventListener('resize', () => { if (state.view) { state.fitted = false; render(); } });
  refresh(true);
})();
