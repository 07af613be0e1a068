// A local stand-in for telegram-web-app.js, for the local run and its tests (no Telegram):
// it reads the launch parameters Telegram puts in the address's fragment (tgWebAppData,
// tgWebAppThemeParams…) as the real script does, and offers the part of
// window.Telegram.WebApp the board app uses.
'use strict';
(function () {
  const hash = new URLSearchParams(location.hash.slice(1));
  const stored = sessionStorage.getItem('__standin_launch');
  const launch = hash.get('tgWebAppData') ? hash : new URLSearchParams(stored || '');
  if (hash.get('tgWebAppData')) sessionStorage.setItem('__standin_launch', location.hash.slice(1));
  const initData = launch.get('tgWebAppData') || '';
  const fields = new URLSearchParams(initData);
  const unsafe = {};
  for (const [key, value] of fields) {
    if (key === 'user' || key === 'receiver' || key === 'chat') {
      try { unsafe[key] = JSON.parse(value); } catch (e) { /* left out, as Telegram's does */ }
    } else if (key === 'auth_date') unsafe[key] = Number(value);
    else unsafe[key] = value;
  }
  let theme = {};
  try { theme = JSON.parse(launch.get('tgWebAppThemeParams') || '{}'); } catch (e) { theme = {}; }
  for (const [key, value] of Object.entries(theme)) {
    document.documentElement.style.setProperty(`--tg-theme-${key.replace(/_/g, '-')}`, value);
  }
  const post = (type, data) => { if (window.parent !== window) window.parent.postMessage({ eventType: type, eventData: data || {} }, '*'); };
  const noop = () => {};
  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: unsafe,
      version: launch.get('tgWebAppVersion') || '9.0',
      platform: launch.get('tgWebAppPlatform') || 'unknown',
      themeParams: theme,
      colorScheme: 'light',
      isExpanded: true,
      ready() { post('web_app_ready'); },
      expand() { post('web_app_expand'); },
      close() { post('web_app_close'); },
      disableVerticalSwipes: noop,
      onEvent: noop,
      offEvent: noop,
      HapticFeedback: { selectionChanged: noop, impactOccurred: noop, notificationOccurred: noop },
    },
  };
})();
