// The live outbox page: plain JavaScript, no build step. Everything it shows comes from the service's own API:
// GET /outbox/stats, GET /actuator/health/outbox (UP, DEGRADED or DOWN by the age of the oldest pending message:
// the same snapshot as the stats and the Prometheus gauges), GET /orders?limit=10, and GET/POST /outbox/relay where
// they exist: only the try-out run
// (spring-boot:test-run) has them; elsewhere GET /outbox/relay answers 404 and the relay controls stay hidden.
// Every call carries a bearer token: the try-out run hands one out at /try-out/token (a demo customer who is
// also an operator); in production the page asks for one and keeps it for the browser tab only.
'use strict';

const REFRESH_MS = 1000;
const WINDOW_MS = 5 * 60 * 1000;
const CHART = { height: 180, left: 40, right: 8, top: 10, bottom: 20 }; // width follows the element

const samples = []; // { at: epoch millis, pending: number }
let relayPaused = null; // null: this instance offers no relay control (not the try-out run)
let token = sessionStorage.getItem('ordering.token');

const $ = (id) => document.getElementById(id);

function randomUuid() {
  if (window.crypto && crypto.randomUUID) {
    return crypto.randomUUID();
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function withToken(headers) {
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}

// The token's subject: the customer the page places orders for.
function subjectOf(jwt) {
  try {
    const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(payload)).sub;
  } catch (error) {
    return null;
  }
}

function useToken(value) {
  token = value;
  sessionStorage.setItem('ordering.token', value);
  const subject = subjectOf(value);
  if (subject) {
    $('customer-id').value = subject;
  }
}

async function getJson(path) {
  const response = await fetch(path, { headers: withToken({ Accept: 'application/json' }), cache: 'no-store' });
  if (response.status === 404) {
    return null;
  }
  if (response.status === 401 || response.status === 403) {
    $('token-box').hidden = false;
    throw new Error(`${path}: HTTP ${response.status}, the page needs a token with scopes orders and orders.admin`);
  }
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  return response.json();
}

// A health component answers 503 with its JSON when DOWN: that is an answer to show, not an error.
async function getHealth(path) {
  const response = await fetch(path, { headers: withToken({ Accept: 'application/json' }), cache: 'no-store' });
  if (response.status !== 200 && response.status !== 503) {
    return null;
  }
  return response.json();
}

async function postJson(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: withToken({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  return { ok: response.ok, status: response.status, json };
}

// ---- refresh loop ------------------------------------------------------------------------------------------

async function refresh() {
  try {
    const [stats, health, orders, relay] = await Promise.all([
      getJson('/outbox/stats'),
      getHealth('/actuator/health/outbox'),
      getJson('/orders?limit=10'),
      getJson('/outbox/relay'),
    ]);
    showStats(stats);
    showHealth(health);
    showOrders(orders || []);
    showRelay(relay);
    $('connection').hidden = true;
  } catch (error) {
    $('connection').textContent = `The service does not answer (${error.message}); retrying every second.`;
    $('connection').hidden = false;
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

function showStats(stats) {
  $('pending').textContent = stats.pending;
  $('parked').textContent = stats.parked;
  $('published').textContent = stats.published;
  $('oldest').textContent = stats.pending > 0 ? `${stats.oldestPendingAgeSeconds.toFixed(1)} s` : '–';
  $('pending').classList.toggle('alert', stats.pending > 0);
  $('parked').classList.toggle('alert', stats.parked > 0);

  const now = Date.now();
  samples.push({ at: now, pending: stats.pending });
  while (samples.length > 0 && samples[0].at < now - WINDOW_MS) {
    samples.shift();
  }
  drawChart(now);
}

function showHealth(health) {
  const element = $('health');
  const status = health && health.status ? health.status : 'UNKNOWN';
  element.textContent = status.toLowerCase();
  ['up', 'degraded', 'down'].forEach((name) => element.classList.toggle(name, status.toLowerCase() === name));
  const details = health && health.details;
  element.title = details && details.degradedAfterSeconds !== undefined
    ? `degraded after ${details.degradedAfterSeconds} s, down after ${details.downAfterSeconds} s pending`
    : '';
}

function showOrders(orders) {
  const body = $('orders').querySelector('tbody');
  body.replaceChildren(...orders.map((order) => {
    const row = document.createElement('tr');
    row.dataset.orderId = order.id;
    const items = order.items.reduce((sum, item) => sum + item.quantity, 0);
    [
      ['…' + order.id.slice(-12), 'mono', order.id], // UUIDv7: the leading digits are the time, alike for all
      [new Date(order.placedAt).toLocaleTimeString(), ''],
      [String(items), ''],
      [`${order.total} ${order.currency}`, 'num'],
      [order.status.toLowerCase(), ''],
    ].forEach(([text, cls, title]) => {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (cls) cell.className = cls;
      if (title) cell.title = title;
      row.appendChild(cell);
    });
    return row;
  }));
  $('no-orders').hidden = orders.length > 0;
}

function showRelay(relay) {
  const available = relay !== null;
  $('relay-control').hidden = !available;
  $('relay-hint').hidden = !available;
  $('received-box').hidden = !available;
  if (!available) {
    relayPaused = null;
    return;
  }
  relayPaused = relay.paused;
  $('relay-state').textContent = relay.paused ? 'relay paused' : 'relay publishing';
  $('relay-state').classList.toggle('paused', relay.paused);
  $('relay-toggle').textContent = relay.paused ? 'Resume relay' : 'Pause relay';
  $('received').textContent = relay.demoConsumerReceived;
}

// ---- chart: pending over the last minutes, as an inline SVG -----------------------------------------------

function svg(name, attributes, text) {
  const element = document.createElementNS('http://www.w3.org/2000/svg', name);
  Object.entries(attributes).forEach(([key, value]) => element.setAttribute(key, value));
  if (text !== undefined) element.textContent = text;
  return element;
}

// The smallest of 4, 10, 20, 40, 100, 200, 400, ... that holds value: whole numbers at the top and the middle line.
function niceMax(value) {
  const floor = Math.max(4, value);
  const magnitude = Math.pow(10, Math.floor(Math.log10(floor)));
  return [1, 2, 4, 10].map((step) => step * magnitude).find((candidate) => candidate >= floor);
}

function drawChart(now) {
  const chart = $('chart');
  const width = Math.max(300, Math.round(chart.getBoundingClientRect().width) || 600);
  chart.setAttribute('viewBox', `0 0 ${width} ${CHART.height}`);
  const plotWidth = width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const max = niceMax(Math.max(...samples.map((s) => s.pending), 0));
  const x = (at) => CHART.left + plotWidth * (1 - (now - at) / WINDOW_MS);
  const y = (pending) => CHART.top + plotHeight * (1 - pending / max);

  const parts = [];
  [0, max / 2, max].forEach((value) => {
    parts.push(svg('line', { x1: CHART.left, x2: width - CHART.right, y1: y(value), y2: y(value), class: 'grid' }));
    parts.push(svg('text', { x: CHART.left - 6, y: y(value) + 4, class: 'axis', 'text-anchor': 'end' }, String(value)));
  });
  [['5 min ago', CHART.left, 'start'], ['now', width - CHART.right, 'end']].forEach(([label, at, anchor]) => {
    parts.push(svg('text', { x: at, y: CHART.height - 4, class: 'axis', 'text-anchor': anchor }, label));
  });
  if (samples.length > 0) {
    const points = samples.map((s) => `${x(s.at).toFixed(1)},${y(s.pending).toFixed(1)}`);
    const first = samples[0];
    const area = [`${x(first.at).toFixed(1)},${y(0)}`, ...points, `${x(now).toFixed(1)},${y(0)}`];
    parts.push(svg('polygon', { points: area.join(' '), class: 'area' }));
    parts.push(svg('polyline', { points: points.join(' '), class: 'line', id: 'pending-line' }));
  }
  chart.replaceChildren(...parts);
  chart.dataset.samples = samples.length;
}

// ---- actions -----------------------------------------------------------------------------------------------

function orderFromForm() {
  return {
    customerId: $('customer-id').value.trim(),
    currency: $('currency').value,
    items: [{
      bookId: $('book-id').value.trim(),
      quantity: Number($('quantity').value),
      unitPrice: $('unit-price').value.trim(),
    }],
  };
}

function say(text, isError) {
  const message = $('form-message');
  message.textContent = text;
  message.classList.toggle('error', Boolean(isError));
}

function problemText(problem) {
  if (!problem) return 'the service refused the order';
  const fields = (problem.errors || []).map((e) => `${e.field} ${e.message}`).join('; ');
  return fields ? `${problem.title}: ${fields}` : (problem.detail || problem.title);
}

async function placeOrders(count) {
  const buttons = [$('place-order'), $('place-many')];
  buttons.forEach((button) => { button.disabled = true; });
  try {
    let last = null;
    for (let i = 0; i < count; i++) {
      const result = await postJson('/orders', orderFromForm());
      if (!result.ok) {
        say(`HTTP ${result.status} – ${problemText(result.json)}`, true);
        return;
      }
      last = result.json;
    }
    say(count === 1
      ? `Order …${last.id.slice(-12)} placed (201 Created): the order and its outbox row are committed.`
      : `${count} orders placed.`);
  } catch (error) {
    say(`Could not reach the service: ${error.message}`, true);
  } finally {
    buttons.forEach((button) => { button.disabled = false; });
  }
}

async function toggleRelay() {
  if (relayPaused === null) return;
  const button = $('relay-toggle');
  button.disabled = true;
  try {
    const result = await postJson(relayPaused ? '/outbox/relay/resume' : '/outbox/relay/pause');
    if (result.ok) {
      showRelay(result.json);
    }
  } finally {
    button.disabled = false;
  }
}

// The try-out run signs demo tokens; production has no such endpoint, and the page asks for a token instead.
async function fetchTryOutToken() {
  try {
    const response = await fetch('/try-out/token', { cache: 'no-store' });
    if (response.ok) {
      useToken((await response.text()).trim());
      return true;
    }
  } catch (error) {
    // no try-out run: ask for a token
  }
  return false;
}

$('customer-id').value = randomUuid();
if (token) {
  useToken(token);
}
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  useToken($('token').value.trim());
  $('token-box').hidden = true;
});
$('order-form').addEventListener('submit', (event) => {
  event.preventDefault();
  placeOrders(1);
});
$('place-many').addEventListener('click', () => placeOrders(25));
$('relay-toggle').addEventListener('click', toggleRelay);
(token ? Promise.resolve(true) : fetchTryOutToken()).then(() => refresh());
