// Telegram message text to DOM nodes: plain text plus entities, as Telegram clients render it.
// Entity offsets count UTF-16 code units, like JavaScript strings, so they slice directly.
// Only text nodes and a fixed set of elements are created: nothing from a message is parsed as
// HTML, and link targets are checked before they become clickable.

const BOT_LINK = /^(?:https?:\/\/)?(?:www\.)?(?:t|telegram)\.me\/([A-Za-z0-9_]{3,64})\/?(?:\?([^#]*))?$/i;
const AUTO = /(https?:\/\/[^\s<>"']+|\bt\.me\/[^\s<>"']+)|(?<=^|[\s(])(\/[A-Za-z][A-Za-z0-9_]{0,31}(?:@[A-Za-z0-9_]+)?)(?![\w/])|(?<![\w@])(@[A-Za-z][A-Za-z0-9_]{3,31})\b/g;
const SIMPLE = {
  bold: 'b', italic: 'i', underline: 'u', strikethrough: 's', code: 'code',
  blockquote: 'blockquote', expandable_blockquote: 'blockquote',
};

/** A t.me link to a bot: {username, start} (start is null without a start parameter). */
export function deepLink(url) {
  const match = BOT_LINK.exec(String(url || '').trim());
  if (!match) return null;
  return { username: match[1], start: new URLSearchParams(match[2] || '').get('start') };
}

/** An http(s) address that is safe to open, or null. */
export function safeHref(url) {
  const raw = String(url || '').trim();
  const absolute = /^t\.me\//i.test(raw) ? `https://${raw}` : raw;
  try {
    const parsed = new URL(absolute);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function link(href, text) {
  const a = document.createElement('a');
  a.className = 'link';
  a.dataset.href = href;
  a.href = safeHref(href) || '#';
  a.rel = 'noopener noreferrer';
  a.target = '_blank';
  a.textContent = text;
  return a;
}

function command(text) {
  const a = document.createElement('a');
  a.className = 'command';
  a.href = '#';
  a.dataset.command = text;
  a.textContent = text;
  return a;
}

/** Plain text with links, bot commands and mentions detected, as clients do. */
function autoText(text, parent) {
  let pos = 0;
  for (const match of text.matchAll(AUTO)) {
    let [whole, url, cmd, mention] = match;
    let end = match.index + whole.length;
    if (url) {
      const trimmed = url.replace(/[.,;:!?)»]+$/, '');
      end -= url.length - trimmed.length;
      url = trimmed;
    }
    parent.append(text.slice(pos, match.index));
    if (url) parent.append(link(url, url));
    else if (cmd) parent.append(command(cmd));
    else {
      const span = document.createElement('span');
      span.className = 'mention';
      span.textContent = mention;
      parent.append(span);
    }
    pos = end;
  }
  parent.append(text.slice(pos));
}

function elementFor(entity, text) {
  const part = text.slice(entity.offset, entity.offset + entity.length);
  switch (entity.type) {
    case 'text_link': return link(entity.url, '');
    case 'url': return link(part, '');
    case 'bot_command': return command(part);
    case 'pre': {
      const pre = document.createElement('pre');
      pre.append(document.createElement('code'));
      return pre;
    }
    case 'spoiler': {
      const span = document.createElement('span');
      span.className = 'spoiler';
      span.title = 'Spoiler: click to reveal';
      return span;
    }
    case 'mention': case 'hashtag': case 'cashtag': case 'email': case 'phone_number': {
      const span = document.createElement('span');
      span.className = 'mention';
      return span;
    }
    default: {
      const el = document.createElement(SIMPLE[entity.type] || 'span');
      if (entity.type === 'expandable_blockquote') el.className = 'expandable';
      return el;
    }
  }
}

function build(text, entities, start, end, parent, plain) {
  let pos = start;
  let i = 0;
  while (i < entities.length) {
    const entity = entities[i];
    const entityEnd = Math.min(entity.offset + entity.length, end);
    let j = i + 1;
    while (j < entities.length && entities[j].offset < entityEnd) j += 1;
    if (entity.offset >= pos) {
      if (entity.offset > pos) emit(text.slice(pos, entity.offset), parent, plain);
      const el = elementFor(entity, text);
      const target = el.tagName === 'PRE' ? el.firstChild : el;
      const inner = plain || ['A', 'CODE', 'PRE'].includes(el.tagName);
      if (el.classList.contains('command')) el.textContent = '';
      build(text, entities.slice(i + 1, j), entity.offset, entityEnd, target, inner);
      parent.append(el);
      pos = entityEnd;
    }
    i = j;
  }
  if (pos < end) emit(text.slice(pos, end), parent, plain);
}

function emit(text, parent, plain) {
  if (plain) parent.append(text);
  else autoText(text, parent);
}

/** A fragment showing a message's text with its formatting. */
export function renderText(text, entities) {
  const fragment = document.createDocumentFragment();
  const sorted = [...(entities || [])]
    .filter((e) => Number.isInteger(e.offset) && Number.isInteger(e.length) && e.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  build(String(text || ''), sorted, 0, String(text || '').length, fragment, false);
  return fragment;
}
