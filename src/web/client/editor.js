// The editor's progressive enhancement: save through the public API (session + CSRF header), then show the next
// string without a full page load; Ctrl+Enter saves and continues, Alt+PageDown / Alt+PageUp move between strings;
// each machine translation engine's suggestions fetched after the page (Alt+M copies the first); an automatic
// translation task's progress followed; zen mode saves each string as its field is left. Without this script every
// form and link still works (the server saves and redirects).
document.documentElement.classList.add('js');

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? '';
const editor = () => document.querySelector('.editor');

/** Replaces the page's main content with the main content of `url`; pushes it to the history unless told not to. */
async function show(url, push = true) {
  const response = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
  if (!response.ok && response.status !== 404) throw new Error(`${response.status} ${response.statusText}`);
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  const main = doc.querySelector('main');
  if (!main) {
    window.location.assign(url);
    return;
  }
  document.querySelector('main').replaceWith(main);
  document.title = doc.title;
  const crumbs = doc.querySelector('nav.crumbs');
  if (crumbs) document.querySelector('nav.crumbs')?.replaceWith(crumbs);
  const e = editor();
  let shown = response.url;
  if (e?.dataset.offset) {
    const params = new URLSearchParams();
    if (e.dataset.q) params.set('q', e.dataset.q);
    params.set('offset', e.dataset.offset);
    shown = `${e.dataset.base}?${params}`;
  }
  if (push) history.pushState({}, '', shown);
  else history.replaceState({}, '', shown);
  focusFirst();
  loadMachinery();
}

/** The Alt+N shortcuts of the copy buttons, in page order (memory matches first, then the engines' suggestions). */
function numberCopyButtons() {
  for (const [i, button] of [...document.querySelectorAll('button[data-copy]')].entries()) {
    if (i < 9) {
      button.setAttribute('aria-keyshortcuts', `Alt+${i + 1}${button.dataset.machine !== undefined && i === firstMachine() ? ' Alt+M' : ''}`);
      button.title = button.getAttribute('aria-keyshortcuts');
    }
  }
}

function firstMachine() {
  return [...document.querySelectorAll('button[data-copy]')].findIndex((b) => b.dataset.machine !== undefined);
}

/** Asks each engine of the machinery pane for the shown string's suggestions; each list fills in as its answer arrives. */
function loadMachinery() {
  const pane = document.querySelector('section[data-machinery]');
  if (!pane) return;
  const unit = pane.dataset.machinery;
  for (const box of pane.querySelectorAll('[data-engine]')) {
    const status = box.querySelector('[data-engine-status]');
    const list = box.querySelector('ol');
    fetch(`/api/units/${unit}/machinery/${encodeURIComponent(box.dataset.engine)}/`, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(async (response) => {
        const body = await response.json();
        if (!response.ok) throw new Error(body.errors?.map((x) => x.detail).join(' ') || `${response.status}`);
        return body;
      })
      .then((answer) => {
        // the editor moved on to another string meanwhile
        if (!box.isConnected) return;
        if (answer.status === 'unavailable') status.textContent = 'Not available for this language.';
        else if (answer.status === 'error') status.textContent = `Failed: ${answer.error}`;
        else status.textContent = answer.suggestions.length === 0 ? 'No suggestions.' : '';
        for (const s of answer.suggestions) {
          const item = document.createElement('li');
          const quality = document.createElement('span');
          quality.className = 'similarity';
          quality.textContent = `${s.quality} %`;
          const text = document.createElement('span');
          text.lang = box.dataset.lang;
          text.dir = box.dataset.dir;
          text.dataset.machineTarget = '';
          text.textContent = s.text;
          const from = document.createElement('small');
          from.textContent = s.origin ? ` — ${s.origin}` : '';
          const copy = document.createElement('button');
          copy.type = 'button';
          copy.textContent = 'Copy';
          copy.dataset.copy = JSON.stringify([s.text]);
          copy.dataset.machine = box.dataset.engine;
          item.append(quality, ' ', text, from, ' ', copy);
          list.append(item);
        }
        numberCopyButtons();
      })
      .catch((error) => {
        if (box.isConnected) status.textContent = `Failed: ${error.message}`;
      });
  }
}

function focusFirst() {
  const field = document.querySelector('.translate-form textarea:not([readonly])');
  if (field) {
    field.focus();
    field.setSelectionRange(field.value.length, field.value.length);
  } else {
    document.querySelector('main')?.focus();
  }
}

function message(text) {
  let box = document.querySelector('.editor [data-save-error]');
  if (!box) {
    box = document.createElement('p');
    box.setAttribute('role', 'alert');
    box.className = 'error';
    box.dataset.saveError = '';
    document.querySelector('.editor .position')?.after(box);
  }
  box.textContent = text;
}

/** The state a save asks for, as the server's stateOfForm: Approve / Unapprove, else "needs editing", else approval kept. */
function stateOf(form, targets, action) {
  if (targets.every((t) => t === '')) return 0;
  if (action === 'approve') return 30;
  if (action === 'unapprove') return 20;
  if (form.querySelector('input[name="fuzzy"]')?.checked) return 10;
  return Number(form.querySelector('[data-state]')?.dataset.state ?? 0) === 30 ? 30 : 20;
}

const targetsOf = (form) => [...form.querySelectorAll('textarea[name^="target_"]')].map((t) => t.value);

/** Saves a form's string (its `unit` field) through `PATCH /api/units/<id>/`; null when saved, else why not. */
async function patchUnit(form, action) {
  const unit = form.querySelector('input[name="unit"]').value;
  const targets = targetsOf(form);
  const response = await fetch(`/api/units/${unit}/`, {
    method: 'PATCH',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRFToken': csrf() },
    body: JSON.stringify({ target: targets, state: stateOf(form, targets, action) }),
  });
  if (response.ok) return null;
  let detail = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    detail = body.errors?.map((x) => x.detail).join(' ') || detail;
  } catch {}
  return detail;
}

/** Saves the shown string; true when saved, else the reason is shown above it. */
async function save(form, action) {
  const failed = await patchUnit(form, action);
  if (failed !== null) message(`Not saved: ${failed}`);
  return failed === null;
}

function editorUrl(extra) {
  const e = editor();
  const params = new URLSearchParams();
  if (e.dataset.q) params.set('q', e.dataset.q);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  return `${e.dataset.base}?${params}`;
}

let busy = false;
/** Saves (`action`: save, save_next, approve, unapprove), then shows the next string (save_next, approve) or this one again. */
async function submit(form, action) {
  if (busy) return;
  busy = true;
  try {
    const e = editor();
    const checksum = form.querySelector('input[name="checksum"]').value;
    const next = action === 'save_next' || action === 'approve';
    if (await save(form, action)) await show(next ? editorUrl({ after: e.dataset.position }) : editorUrl({ checksum }), next);
  } catch (error) {
    message(`Not saved: ${error.message}`);
  } finally {
    busy = false;
  }
}

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains('translate-form')) return;
  // a suggestion is posted as the form is (the server stores it and shows the string again)
  if (event.submitter?.name === 'suggest') return;
  event.preventDefault();
  submit(form, event.submitter?.name ?? 'save');
});

/** Copies a memory match into the translation fields: its plural forms (a JSON list) one per field, in order. */
function copyMatch(button) {
  const fields = [...document.querySelectorAll('.translate-form textarea:not([readonly])')];
  if (fields.length === 0 || !button) return;
  let forms;
  try {
    forms = JSON.parse(button.dataset.copy ?? '[]');
  } catch {
    forms = [];
  }
  // a singular match fills the first field only
  for (const [i, form] of forms.slice(0, fields.length).entries()) fields[i].value = form;
  fields[0].dispatchEvent(new Event('input', { bubbles: true }));
  fields[0].focus();
}

document.addEventListener('click', (event) => {
  const copy = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (copy) {
    copyMatch(copy);
    return;
  }
  const link = event.target instanceof Element ? event.target.closest('a[data-nav]') : null;
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  show(link.href).catch(() => window.location.assign(link.href));
});

document.addEventListener('keydown', (event) => {
  if (!editor()) return;
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    const form = document.querySelector('.translate-form');
    if (form?.querySelector('button[name="save_next"]')) {
      event.preventDefault();
      submit(form, 'save_next');
    }
    return;
  }
  // Alt+Enter suggests the text as typed (Weblate's shortcut): the form is posted as the Suggest button would
  if (event.key === 'Enter' && event.altKey) {
    const suggest = document.querySelector('.translate-form button[name="suggest"]');
    if (suggest) {
      event.preventDefault();
      suggest.click();
    }
    return;
  }
  if (event.altKey && (event.key === 'm' || event.key === 'M' || event.code === 'KeyM')) {
    const first = document.querySelector('button[data-copy][data-machine]');
    if (first) {
      event.preventDefault();
      copyMatch(first);
    }
    return;
  }
  if (event.altKey && /^[1-9]$/.test(event.key)) {
    const match = document.querySelectorAll('button[data-copy]')[Number(event.key) - 1];
    if (match) {
      event.preventDefault();
      copyMatch(match);
    }
    return;
  }
  // `?` outside a text field opens (or closes) the keyboard help
  if (
    event.key === '?' &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.metaKey &&
    !(event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement)
  ) {
    const help = document.querySelector('details.keys');
    if (help) {
      event.preventDefault();
      help.open = !help.open;
      help.querySelector('summary')?.focus();
    }
    return;
  }
  const move = { PageDown: 'next', PageUp: 'prev', Home: 'first', End: 'last' }[event.key];
  if (event.altKey && move) {
    const link = document.querySelector(`a[data-nav="${move}"]`);
    if (link) {
      event.preventDefault();
      show(link.href).catch(() => window.location.assign(link.href));
    }
  }
});

/** Follows automatic translation tasks shown on the page (`data-task`: the task's API address) until they end. */
function followTasks() {
  for (const box of document.querySelectorAll('[data-task]')) {
    const bar = box.querySelector('progress');
    const text = box.querySelector('[data-task-status]');
    const poll = async () => {
      const response = await fetch(box.dataset.task, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (!response.ok) return;
      const task = await response.json();
      if (bar) bar.value = task.progress;
      if (task.completed) {
        if (text) text.textContent = task.result?.message ?? task.result?.error ?? 'Done.';
        box.dataset.taskDone = '';
        return;
      }
      setTimeout(() => poll().catch(() => {}), 500);
    };
    if (box.dataset.taskDone === undefined) poll().catch(() => {});
  }
}

loadMachinery();
followTasks();

window.addEventListener('popstate', () => {
  if (editor()) show(window.location.href, false).catch(() => window.location.reload());
});

// Checks while typing: the server runs them on the text as typed (nothing stored) and answers the checks section.
let checkTimer;
let checkRun = 0;
async function previewChecks(form) {
  const e = editor();
  const section = document.querySelector('.editor section[data-checks]');
  if (!e || !section) return;
  const body = new URLSearchParams({ unit: e.dataset.unit });
  for (const t of form.querySelectorAll('textarea[name^="target_"]')) body.set(t.name, t.value);
  const run = ++checkRun;
  const response = await fetch(`${e.dataset.base}checks/`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', 'X-CSRFToken': csrf() },
    body,
  });
  // an answer to older text, or to another string, is not shown
  if (!response.ok || run !== checkRun || editor()?.dataset.unit !== e.dataset.unit) return;
  // only the live region's content changes, so screen readers announce the new list
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector('section[data-checks] [aria-live]');
  const live = document.querySelector('.editor section[data-checks] [aria-live]');
  if (fresh && live) live.replaceChildren(...fresh.childNodes);
}

document.addEventListener('input', (event) => {
  const field = event.target;
  if (!(field instanceof HTMLTextAreaElement) || !field.name.startsWith('target_') || field.readOnly) return;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => previewChecks(field.form).catch(() => {}), 250);
});

// Zen mode: every string of the list is a form; leaving a changed field (or ticking "Needs editing") saves it through
// the API, its status line says so, and a failed save keeps the text and says why. The next page of strings is
// appended as the list's end comes into view (or its "More strings" link is followed).
const STATE_TEXT = { 0: 'Untranslated', 10: 'Needs editing', 20: 'Translated', 30: 'Approved' };
const saving = new Set();
const dirty = new Set();

function zenStatus(form, text, error = false) {
  const line = form.querySelector('.zen-status');
  if (!line) return;
  line.setAttribute('role', error ? 'alert' : 'status');
  line.classList.toggle('error', error);
  line.textContent = text;
}

async function saveZen(form) {
  if (saving.has(form)) {
    form.dataset.again = '1';
    return;
  }
  saving.add(form);
  zenStatus(form, 'Saving…');
  try {
    const failed = await patchUnit(form);
    if (failed !== null) {
      zenStatus(form, `Not saved: ${failed}`, true);
      return;
    }
    dirty.delete(form);
    const shown = form.querySelector('[data-state]');
    const state = stateOf(form, targetsOf(form));
    if (shown) {
      shown.dataset.state = String(state);
      shown.textContent = STATE_TEXT[state] ?? shown.textContent;
    }
    zenStatus(form, 'Saved');
  } catch (error) {
    zenStatus(form, `Not saved: ${error.message}`, true);
  } finally {
    saving.delete(form);
    if (form.dataset.again) {
      delete form.dataset.again;
      saveZen(form);
    }
  }
}

const zenForm = (target) => (target instanceof Element ? target.closest('.zen-form') : null);

document.addEventListener('input', (event) => {
  const form = zenForm(event.target);
  if (form) dirty.add(form);
});

/** Posts a zen row's text as a suggestion (the form as the page would post it); the row says whether it was taken. */
async function suggestZen(form) {
  zenStatus(form, 'Suggesting…');
  try {
    const body = new URLSearchParams(new FormData(form));
    body.set('suggest', '1');
    const response = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
    if (!response.ok) {
      zenStatus(form, `Not suggested: ${response.status === 403 ? 'you may not suggest here' : response.statusText || response.status}`, true);
      return;
    }
    dirty.delete(form);
    zenStatus(form, 'Suggested');
  } catch (error) {
    zenStatus(form, `Not suggested: ${error.message}`, true);
  }
}

document.addEventListener('change', (event) => {
  const form = zenForm(event.target);
  // a string the translator may only suggest on is never saved by leaving it
  if (form && !form.dataset.suggestOnly && !event.target.readOnly && (dirty.has(form) || event.target.type === 'checkbox')) saveZen(form);
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains('zen-form')) return;
  event.preventDefault();
  if (event.submitter?.name === 'suggest') suggestZen(form);
  else saveZen(form);
});

/** Appends the next page of the list; focuses its first field when asked (a keyboard user followed the link). */
let loading = false;
async function loadMore(link, focus) {
  if (loading) return;
  loading = true;
  try {
    const response = await fetch(link.href, { headers: { Accept: 'text/html' }, credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${response.status}`);
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    const list = document.querySelector('.zen-list');
    const rows = [...doc.querySelectorAll('.zen-list > li')];
    list.append(...rows);
    link.closest('p').replaceWith(doc.querySelector('.zen-more')?.closest('p') ?? doc.querySelector('.zen-end') ?? '');
    if (focus) rows[0]?.querySelector('textarea:not([readonly])')?.focus();
    watchEnd();
  } catch {
    window.location.assign(link.href);
  } finally {
    loading = false;
  }
}

const observer =
  'IntersectionObserver' in window
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries) if (e.isIntersecting) loadMore(e.target, false);
        },
        { rootMargin: '400px' },
      )
    : null;

function watchEnd() {
  const more = document.querySelector('.zen-more');
  if (observer && more) observer.observe(more);
}
watchEnd();

document.addEventListener('click', (event) => {
  const more = event.target instanceof Element ? event.target.closest('a.zen-more') : null;
  if (!more || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  loadMore(more, true);
});

document.addEventListener('keydown', (event) => {
  if (event.altKey && (event.key === 'z' || event.key === 'Z')) {
    const other = document.querySelector('a[data-mode]');
    if (other) {
      event.preventDefault();
      window.location.assign(other.href);
    }
    return;
  }
  const form = zenForm(event.target);
  if (form && event.key === 'Enter' && event.altKey && form.querySelector('button[name="suggest"]')) {
    event.preventDefault();
    suggestZen(form);
    return;
  }
  if (!form || event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
  event.preventDefault();
  if (dirty.has(form)) {
    if (form.dataset.suggestOnly) suggestZen(form);
    else saveZen(form);
  }
  const next = form.closest('li')?.nextElementSibling?.querySelector('textarea:not([readonly])');
  if (next) next.focus();
  else document.querySelector('.zen-more')?.focus();
});

window.addEventListener('beforeunload', (event) => {
  // a change not saved yet (or refused) is not left behind without a question
  if (saving.size > 0 || dirty.size > 0) event.preventDefault();
});
