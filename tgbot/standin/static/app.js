// The play page: a group chat and the selected player's private chat with the bot.
// It reads the stand-in's world from /_standin/view (long-polled), and the players' Telegram
// languages from /_standin/users, and acts as the selected player through the control API,
// exactly as a test would: nothing here talks to the bot.
import { deepLink, renderText, safeHref } from './text.js';

const $ = (selector) => document.querySelector(selector);
const state = {
  view: null,
  version: -1,
  me: null,
  groupId: null,
  topics: new Map(), // forum group id -> the topic shown (its thread id; null: General)
  seen: new Map(), // user id -> last private message id this tab has shown
  pending: new Map(), // callback query id -> {who, where}, for presses made in this tab
  alerts: [],
  languages: new Map(), // user id -> the language_code of their Telegram app, or null
  languageEdits: 0, // language changes made in this tab: an older read of them is stale
  userIds: '',
};
const pane = (name) => ({
  box: $(`#${name}-messages`), toasts: $(`#${name}-toasts`),
  chatId: null, topic: null, me: null, nodes: new Map(),
});
const panes = { group: pane('group'), private: pane('private') };
// An emoji as one piece: flags, keycaps, ZWJ sequences, skin tones, presentation selectors.
const PICTO = String.raw`\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?`;
const EMOJI = new RegExp(
  String.raw`(\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|${PICTO}(?:\u200D${PICTO})*)`, 'u',
);

const users = () => (state.view ? state.view.users : []);
const userById = (id) => users().find((u) => u.id === id);
const chatById = (id) => (state.view ? state.view.chats.find((c) => c.id === id) : undefined);
const groups = () => (state.view ? state.view.chats.filter((c) => c.type !== 'private') : []);
const nameOf = (u) => (u ? [u.first_name, u.last_name].filter(Boolean).join(' ') : 'Unknown');
// The pane a chat shows in: its toasts appear over it.
const paneOf = (chatId) => ((chatById(chatId) || {}).type === 'private' ? 'private' : 'group');

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// ----- talking to the stand-in ---------------------------------------------------------------

async function post(path, body, where = null) {
  const response = await fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok || data.error) throw new Error(data.error || `HTTP ${response.status}`);
  if (data.delivery && !data.delivery.ok) {
    const why = data.delivery.error || data.delivery.status;
    toast(`The bot did not take it: ${why}`, 'error', where);
  }
  return data;
}

async function act(promise, where = null) {
  try {
    return await promise;
  } catch (error) {
    toast(String(error.message || error), 'error', where);
    return null;
  }
}

async function poll() {
  for (;;) {
    try {
      const response = await fetch(`/_standin/view?since=${state.version}`, { cache: 'no-store' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      apply(await response.json());
      setStatus(true);
    } catch {
      setStatus(false);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function setStatus(online) {
  const status = $('#status');
  status.textContent = online ? 'live' : 'offline: is the runner still running?';
  status.classList.toggle('offline', !online);
}

// ----- actions -------------------------------------------------------------------------------

function selectPlayer(id) {
  state.me = id;
  history.replaceState(null, '', `#player=${id}`);
  render();
  loadLanguages(); // another tab may have changed it
}

// The topic shown of a forum group (its thread id), or null: General, or not a forum.
function topicOf(chatId) {
  const chat = chatById(chatId);
  if (!chat || !chat.is_forum) return null;
  const topic = state.topics.get(chatId) ?? null;
  return chat.topics.some((t) => t.id === topic) ? topic : null;
}

async function send(chatId, text) {
  if (!text.trim() || state.me === null) return;
  const where = paneOf(chatId);
  const body = { user_id: state.me, chat_id: chatId, text };
  const topic = topicOf(chatId);
  if (topic !== null) body.message_thread_id = topic;  // posted in the topic, as Telegram does
  await act(post('/_standin/send', body, where), where);
}

// A new group (a forum with `forum`) made by the selected player, who then adds the bot: the
// bot gets a real my_chat_member change (left → member), as when someone adds it in Telegram.
async function newGroup(forum) {
  if (state.me === null) return toast('Add a player first.', 'error', 'group');
  const count = groups().filter((c) => c.is_forum === forum).length + 1;
  const id = -(1_000_000_000_000 + Math.floor(Math.random() * 1_000_000_000));
  const title = forum ? `Forum ${count}` : `Group ${count}`;
  const body = { chat_id: id, title, type: 'supergroup', is_forum: forum, bot_status: 'left',
    creator_id: state.me };
  const made = await act(post('/_standin/chats', body), 'group');
  if (!made) return;
  state.groupId = id;
  await act(post('/_standin/bot/added', { chat_id: id, user_id: state.me }, 'group'), 'group');
}

async function newTopic() {
  const chatId = state.groupId;
  const name = (window.prompt('Name of the new topic', `Table ${Date.now() % 1000}`) || '').trim();
  if (!name || chatId === null) return;
  const made = await act(post('/_standin/topics', { chat_id: chatId, name, user_id: state.me }), 'group');
  if (made) {
    state.topics.set(chatId, made.message_thread_id);
    render();
  }
}

async function press(chatId, messageId, button) {
  if (button.web_app) return openApp({ user_id: state.me, url: button.web_app.url });
  if (button.url) return openLink(button.url, state.me);
  const where = paneOf(chatId);
  if (button.callback_data === undefined) return toast('This button does nothing here.', '', where);
  const who = state.me;
  const data = await act(post('/_standin/press', {
    user_id: who, chat_id: chatId, message_id: messageId, data: button.callback_data,
  }, where), where);
  if (data && data.update && data.update.callback_query) {
    state.pending.set(data.update.callback_query.id, { who, where });
    showAnswers();
  }
}

// A Mini App, opened over the chats as Telegram opens one: the stand-in signs its initData.
async function openApp(body) {
  const answer = await fetch('/_standin/webapp', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!answer.ok) return toast('This app is not registered here.', '', 'group');
  const { url } = await answer.json();
  const frame = $('#miniapp-frame');
  frame.src = url;
  $('#miniapp').hidden = false;
}
$('#miniapp-close').addEventListener('click', () => {
  $('#miniapp').hidden = true;
  $('#miniapp-frame').src = 'about:blank';
});
window.addEventListener('message', (event) => {
  if (event.source === $('#miniapp-frame').contentWindow && event.data
      && event.data.eventType === 'web_app_close') $('#miniapp-close').click();
});

async function openLink(url, who) {
  const bot = state.view && state.view.bot.username;
  const direct = /^https:\/\/t\.me\/([A-Za-z0-9_]+)\/([A-Za-z0-9_]+)(\?|$)/.exec(String(url));
  if (direct && bot && direct[1].toLowerCase() === bot.toLowerCase()) {
    return openApp({ user_id: who, link: url });
  }
  const link = deepLink(url);
  if (link && bot && link.username.toLowerCase() === bot.toLowerCase()) {
    if (who !== state.me) selectPlayer(who);
    $('#private-chat').scrollIntoView({ behavior: 'smooth', block: 'nearest' });
    if (link.start !== null) {
      const body = { user_id: who, payload: link.start || null };
      await act(post('/_standin/start', body, 'private'), 'private');
    }
    return;
  }
  const href = safeHref(url);
  if (href) window.open(href, '_blank', 'noopener,noreferrer');
}

// The players' Telegram app languages: the language_code of every update they send.
async function loadLanguages() {
  const edits = state.languageEdits;
  try {
    const response = await fetch('/_standin/users', { cache: 'no-store' });
    if (!response.ok) return;
    const data = await response.json();
    if (edits !== state.languageEdits) return;
    state.languages = new Map(data.users.map((u) => [u.id, u.language_code || null]));
    renderLanguage();
  } catch {
    // offline: the status says so, and the next view loads them again
  }
}

async function setLanguage(code) {
  const who = state.me;
  if (who === null) return;
  state.languageEdits += 1;
  const user = await act(post('/_standin/users', { id: who, language_code: code }));
  if (user) state.languages.set(user.id, user.language_code || null);
  renderLanguage();
}

async function addPlayer(name) {
  const count = users().length + 1;
  const user = await act(post('/_standin/users', { first_name: name.trim() || `Player ${count}` }));
  if (user) selectPlayer(user.id);
}

// ----- callback answers: toasts and alerts ---------------------------------------------------

// A toast over a chat's pane ('group' or 'private'), or over the page without one.
function toast(text, kind = '', where = null) {
  const node = el('div', `toast ${kind}`.trim(), text);
  (where ? panes[where].toasts : $('#toasts')).append(node);
  setTimeout(() => node.remove(), kind === 'error' ? 6000 : 3500);
}

function showAlert() {
  const box = $('#alert');
  if (!box.hidden || !state.alerts.length) return;
  const { who, text } = state.alerts.shift();
  $('#alert-who').textContent = who;
  $('#alert-text').textContent = text;
  box.hidden = false;
  $('#alert-ok').focus();
}

function showAnswers() {
  if (!state.view) return;
  for (const answer of state.view.answers) {
    const pressed = state.pending.get(answer.id);
    if (pressed === undefined) continue;
    state.pending.delete(answer.id);
    const { who, where } = pressed;
    const name = nameOf(userById(who));
    if (answer.text && answer.show_alert) {
      state.alerts.push({ who: `Hintrigue · to ${name}`, text: answer.text });
      showAlert();
    } else if (answer.text) {
      toast(`${name}: ${answer.text}`, '', where);  // over the chat where the button was
    }
    if (answer.url) openLink(answer.url, who);
  }
}

// ----- rendering -----------------------------------------------------------------------------

function apply(view) {
  const first = state.view === null;
  state.view = view;
  state.version = view.version;
  if (first) {
    for (const u of view.users) state.seen.set(u.id, lastBotMessage(u.id));
    const wanted = Number((/player=(-?\d+)/.exec(location.hash) || [])[1]);
    state.me = view.users.some((u) => u.id === wanted) ? wanted : null;
  }
  if (!userById(state.me) && view.users.length) state.me = view.users[0].id;
  if (!chatById(state.groupId) && groups().length) state.groupId = groups()[0].id;
  const ids = view.users.map((u) => u.id).join(',');
  if (ids !== state.userIds) {
    state.userIds = ids;
    loadLanguages();
  }
  render();
  showAnswers();
}

function lastBotMessage(userId) {
  const chat = chatById(userId);
  const mine = chat ? chat.messages.filter((m) => m.from_user_id === null) : [];
  return mine.length ? mine[mine.length - 1].message_id : 0;
}

function render() {
  if (!state.view) return;
  if (state.me !== null) state.seen.set(state.me, lastBotMessage(state.me));
  renderPlayers();
  renderLanguage();
  renderGroup();
  renderPrivate();
}

// The chips are updated in place: a chip made anew at every update of the view would drop a
// click whose press and release fell on either side of one (a busy bot updates it often).
function renderPlayers() {
  const nav = $('#players');
  const made = new Map([...nav.children].map((chip) => [chip.dataset.userId, chip]));
  const chips = users().map((u) => {
    let chip = made.get(String(u.id));
    if (!chip) {
      chip = el('button', 'player', '');
      chip.type = 'button';
      chip.dataset.userId = u.id;
      chip.addEventListener('click', () => selectPlayer(u.id));
    }
    const unread = lastBotMessage(u.id) > (state.seen.get(u.id) || 0);
    const badge = unread && u.id !== state.me ? [el('span', 'badge', '•')] : [];
    chip.replaceChildren(nameOf(u), ...badge);
    chip.setAttribute('aria-pressed', String(u.id === state.me));
    chip.title = unread ? 'New private message from the bot' : `Play as ${nameOf(u)}`;
    return chip;
  });
  chips.forEach((chip, i) => {
    if (nav.children[i] !== chip) nav.insertBefore(chip, nav.children[i] || null);
  });
  while (nav.children.length > chips.length) nav.lastElementChild.remove();
  const me = nameOf(userById(state.me));
  for (const input of document.querySelectorAll('.composer input')) {
    input.placeholder = state.me === null ? 'Add a player first' : `Message as ${me}`;
  }
}

function renderLanguage() {
  const select = $('#player-language');
  const me = userById(state.me);
  const code = (me && state.languages.get(me.id)) || '';
  select.querySelector('option.other')?.remove();
  if (![...select.options].some((o) => o.value === code)) {
    const other = new Option(code, code);  // set through the control API: shown as it is
    other.className = 'other';
    select.append(other);
  }
  select.value = code;
  select.disabled = !me;
  select.title = me ? `The Telegram app language of ${nameOf(me)}: the language_code the bot `
    + 'gets with each of their updates' : 'Add a player first';
}

function renderGroup() {
  const select = $('#group-select');
  const list = groups();
  select.hidden = list.length < 2;
  select.replaceChildren(...list.map((c) => new Option(c.title || String(c.id), c.id)));
  select.value = String(state.groupId);
  const chat = chatById(state.groupId);
  $('#group-title').textContent = chat ? chat.title || 'Group' : 'No group yet';
  const status = chat && chat.bot_status !== 'member' && chat.bot_status !== 'administrator'
    ? ` · the bot is ${chat.bot_status === 'kicked' ? 'banned' : 'not a member'}` : '';
  $('#group-sub').textContent = chat ? `${chat.is_forum ? 'forum' : 'group'} · you are ${nameOf(userById(state.me))}${status}` : '';
  const forum = Boolean(chat && chat.is_forum);
  const topic = chat ? topicOf(chat.id) : null;
  $('#topic-bar').hidden = !forum;
  if (forum) {
    const topics = $('#topic-select');
    topics.replaceChildren(new Option('# General', ''),
      ...chat.topics.map((t) => new Option(`# ${t.name}`, String(t.id))));
    topics.value = topic === null ? '' : String(topic);
  }
  // A forum shows one topic at a time: the messages that carry its thread id (General: none).
  const shown = chat && forum ? { ...chat, messages: chat.messages.filter(
    (m) => (m.thread_id ?? null) === topic) } : chat;
  renderMessages(panes.group, shown, topic);
}

function renderPrivate() {
  const me = userById(state.me);
  const chat = me ? chatById(me.id) : undefined;
  const bot = state.view.bot;
  $('#private-title').textContent = bot.first_name;
  $('#private-sub').textContent = me ? `bot · private chat with ${nameOf(me)}` : 'bot';
  const started = Boolean(me && me.started);
  $('#start-bar').hidden = !me || started;
  $('#private-composer').hidden = !started;
  renderMessages(panes.private, chat);
}

function renderMessages(pane, chat, topic = null) {
  const chatId = chat ? chat.id : null;
  const fresh = pane.chatId !== chatId || pane.me !== state.me || pane.topic !== topic;
  if (fresh) {
    pane.box.replaceChildren();
    pane.nodes.clear();
    pane.chatId = chatId;
    pane.topic = topic;
    pane.me = state.me;
  }
  const box = pane.box;
  const nearBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
  const messages = chat ? chat.messages : [];
  const alive = new Set(messages.map((m) => m.message_id));
  for (const [id, entry] of pane.nodes) {
    if (!alive.has(id)) { entry.node.remove(); pane.nodes.delete(id); }
  }
  let grew = false;
  messages.forEach((message, index) => {
    const signature = JSON.stringify([message.text, message.entities, message.keyboard, message.edits,
      message.photo]);
    const entry = pane.nodes.get(message.message_id);
    if (entry && entry.signature === signature) return;
    const node = messageNode(chat, message);
    if (entry) {
      entry.node.replaceWith(node);
      node.classList.add('flash');
    } else {
      box.insertBefore(node, box.children[index] || null);
      grew = true;
    }
    pane.nodes.set(message.message_id, { node, signature });
  });
  if (grew && (nearBottom || fresh)) box.scrollTop = box.scrollHeight;
}

function messageNode(chat, message) {
  if (message.topic_created !== null && message.topic_created !== undefined) {
    const node = el('div', 'msg service');
    node.dataset.messageId = message.message_id;
    node.append(el('div', 'pill', `Topic “${message.topic_created}” created`));
    return node;
  }
  const fromBot = message.from_user_id === null;
  const mine = !fromBot && message.from_user_id === state.me;
  const node = el('div', `msg ${mine ? 'out' : 'in'}${fromBot ? ' bot' : ''}`);
  node.dataset.messageId = message.message_id;
  const bubble = el('div', 'bubble');
  if (chat.type !== 'private' && !mine) {
    const sender = fromBot ? state.view.bot : userById(message.from_user_id);
    const id = sender ? sender.id : 0;
    bubble.append(el('div', `sender c${Math.abs(id) % 7}`, nameOf(sender)));
  }
  if (message.photo) {  // a photo message: the picture, then its caption
    const picture = el('img', 'photo');
    picture.src = message.photo;
    picture.alt = 'Picture';
    picture.loading = 'lazy';
    bubble.append(picture);
  }
  const text = el('div', 'text');
  const shown = startWithoutPayload(chat, message) || message;
  text.append(renderText(shown.text, shown.entities));
  bubble.append(text);
  const time = new Date(1000 * (message.edit_date || message.date));
  const meta = el('div', 'meta', time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }));
  if (message.edit_date) meta.prepend(el('span', 'edited', 'edited '));
  bubble.append(meta);
  node.append(bubble);
  if (message.keyboard.length) {
    const keyboard = el('div', 'keyboard');
    for (const row of message.keyboard) {
      const line = el('div', 'row');
      for (const button of row) {
        const key = el('button', 'kb');
        key.append(...withEmoji(button.text));
        key.type = 'button';
        if (button.url) key.classList.add('url');
        if (button.web_app) key.classList.add('webapp');
        key.addEventListener('click', () => press(chat.id, message.message_id, button));
        line.append(key);
      }
      keyboard.append(line);
    }
    node.append(keyboard);
  }
  return node;
}

// A deep link's start shows as a plain `/start`, as Telegram shows it; the bot got the payload.
function startWithoutPayload(chat, message) {
  const start = /^\/start(?:@\w+)?(?=\s+\S)/.exec(message.text);
  if (chat.type !== 'private' || message.from_user_id === null || !start) return null;
  const entities = message.entities.filter((e) => e.offset + e.length <= start[0].length);
  return { text: start[0], entities };
}

// Button text with each emoji in a span of its own, drawn larger as Telegram draws them.
function withEmoji(text) {
  return String(text).split(EMOJI)  // emoji at the odd places: EMOJI captures them
    .map((part, i) => (i % 2 ? el('span', 'emoji', part) : document.createTextNode(part)))
    .filter((node) => node.textContent);
}

// ----- wiring --------------------------------------------------------------------------------

function onTextClick(event, chatId) {
  const target = event.target.closest('a.command, a.link, .spoiler');
  if (!target) return;
  if (target.classList.contains('spoiler')) {
    target.classList.add('revealed');
    return;
  }
  event.preventDefault();
  if (target.classList.contains('command')) send(chatId(), target.dataset.command);
  else openLink(target.dataset.href, state.me);
}

function commandMenu(button, chatId) {
  const menu = $('#command-menu');
  const commands = (state.view && state.view.commands) || [];
  if (!menu.hidden || !commands.length) {
    menu.hidden = true;
    return;
  }
  menu.replaceChildren(...commands.map((c) => {
    const item = el('button', 'command-item');
    item.type = 'button';
    item.append(el('b', '', `/${c.command}`), el('span', '', c.description));
    item.addEventListener('click', () => { menu.hidden = true; send(chatId(), `/${c.command}`); });
    return item;
  }));
  const box = button.getBoundingClientRect();
  menu.style.left = `${box.left}px`;
  menu.style.bottom = `${window.innerHeight - box.top + 6}px`;
  menu.hidden = false;
}

function wire(form, box, chatId) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const input = form.elements.text;
    const text = input.value;
    input.value = '';
    send(chatId(), text);
  });
  box.addEventListener('click', (event) => onTextClick(event, chatId));
  form.querySelector('.menu-button').addEventListener('click', (e) => commandMenu(e.currentTarget, chatId));
}

wire($('#group-composer'), panes.group.box, () => state.groupId);
wire($('#private-composer'), panes.private.box, () => state.me);
$('#group-select').addEventListener('change', (event) => {
  state.groupId = Number(event.target.value);
  render();
});
$('#topic-select').addEventListener('change', (event) => {
  state.topics.set(state.groupId, event.target.value ? Number(event.target.value) : null);
  render();
});
$('#new-topic').addEventListener('click', newTopic);
$('#new-group').addEventListener('click', () => newGroup(false));
$('#new-forum').addEventListener('click', () => newGroup(true));
$('#player-language').addEventListener('change', (event) => setLanguage(event.target.value));
$('#start-button').addEventListener('click', () => {
  act(post('/_standin/start', { user_id: state.me }, 'private'), 'private');
});
$('#add-player').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('#new-player-name');
  addPlayer(input.value);
  input.value = '';
});
$('#alert-ok').addEventListener('click', () => {
  $('#alert').hidden = true;
  showAlert();
});
document.addEventListener('click', (event) => {
  if (!event.target.closest('#command-menu, .menu-button')) $('#command-menu').hidden = true;
});
poll();
