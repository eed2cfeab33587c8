// The boardgame.io peer of `make bench`: a one-move dice game served over socket.io by boardgame.io's own Server.
// usage: node server.js PORT [FLATFILE_DIR]   (no dir: its in-memory storage; a dir: its FlatFile storage)
const { Server, FlatFile } = require('boardgame.io/server');

const Dice = {
  name: 'dice',
  minPlayers: 1,
  maxPlayers: 1,
  setup: () => ({ rolls: 0, last: null }),
  moves: {
    // the one move: a die rolled by the framework's seeded PRNG, kept in the state
    roll: ({ G, random }) => {
      G.rolls += 1;
      G.last = random.D6();
    },
  },
};

const [port, dir] = [Number(process.argv[2]), process.argv[3]];
const server = Server({ games: [Dice], ...(dir ? { db: new FlatFile({ dir }) } : {}) });
server.run({ port, lobbyConfig: undefined }, () => console.log(`ready ${port}`));
