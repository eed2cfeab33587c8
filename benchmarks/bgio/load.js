// The load on the boardgame.io peer, as its own process: N socket.io connections on loopback, each in its own
// match (created and joined through the lobby API, so every move carries its player's credentials), each sending
// one move and waiting for the server's update before the next (as ours waits for each HTTP answer).
// usage: node load.js PORT CONNECTIONS MOVES_PER_CONNECTION [TIME_LIMIT_S]
// Prints a JSON summary: rate, p50/p99 (ms), errors, and per match the last acknowledged _stateID (for the crash check).
const { io } = require('socket.io-client');

const [port, conns, perConn] = process.argv.slice(2, 5).map(Number);
const timeLimit = Number(process.argv[5] || 120) * 1000;
const base = `http://127.0.0.1:${port}`;

async function post(path, body) {
  const r = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function match() {
  const { matchID } = await post('/games/dice/create', { numPlayers: 1 });
  const { playerCredentials } = await post(`/games/dice/${matchID}/join`, { playerID: '0', playerName: 'p0' });
  return { matchID, credentials: playerCredentials };
}

function connection({ matchID, credentials }, lat, acked, deadline) {
  return new Promise((resolve) => {
    const socket = io(`${base}/dice`, { transports: ['websocket'], reconnection: false, forceNew: true });
    let stateID = null;
    let sent = 0;
    let t0 = 0;
    let done = false;
    const finish = (why) => {
      if (done) return;
      done = true;
      socket.close();
      resolve(why);
    };
    const next = () => {
      if (sent >= perConn || Date.now() > deadline) return finish('done');
      sent += 1;
      t0 = performance.now();
      const action = { type: 'MAKE_MOVE', payload: { type: 'roll', args: [], playerID: '0', credentials } };
      socket.emit('update', action, stateID, matchID, '0');
    };
    socket.on('sync', (id, info) => {
      stateID = info.state._stateID;
      next();
    });
    socket.on('update', (id, state) => {
      if (state._stateID <= stateID) return;
      lat.push(performance.now() - t0);
      stateID = state._stateID;
      acked[matchID] = stateID; // acknowledged: the server answered with the state after this move
      next();
    });
    socket.on('connect', () => socket.emit('sync', matchID, '0', credentials, 1));
    socket.on('connect_error', () => finish('error'));
    socket.on('disconnect', () => finish('gone'));
  });
}

setTimeout(() => {
  console.error('load.js: time limit passed');
  process.exit(2);
}, timeLimit + 30000).unref();

(async () => {
  const matches = [];
  for (let i = 0; i < conns; i++) matches.push(await match());
  const lat = [];
  const acked = {};
  process.stderr.write('go\n'); // the crash check starts its clock here
  const start = performance.now();
  const ends = await Promise.all(matches.map((m) => connection(m, lat, acked, Date.now() + timeLimit)));
  const elapsed = (performance.now() - start) / 1000;
  lat.sort((a, b) => a - b);
  const pick = (q) => (lat.length ? lat[Math.max(0, Math.ceil(lat.length * q) - 1)] : 0);
  console.log(
    JSON.stringify({
      rate: lat.length / elapsed,
      p50: pick(0.5),
      p99: pick(0.99),
      requests: lat.length,
      errors: ends.filter((e) => e === 'error').length,
      gone: ends.filter((e) => e === 'gone').length,
      acked,
    }),
  );
  process.exit(0);
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
