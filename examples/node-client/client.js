#!/usr/bin/env node
// duelhall example client: plays one card_monsters match with uniformly random legal commands for both
// seats, each over its own Play stream, while a spectator watches it on its own connection, then exports
// the replay and has it verified.
//
// The contract is read from proto/duelhall/v1/duelhall.proto at run time; payloads are JSON strings.
// Usage: node client.js [--server HOST:PORT] [--seed N] [--out FILE]
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const protobuf = require('protobufjs');

const PROTO_ROOT = path.resolve(__dirname, '../../proto');
const RULESET = 'card_monsters';
const CALL_SECONDS = 30;

// google.rpc.Status and ErrorInfo, enough to read the reason out of grpc-status-details-bin.
// Any is declared here with its wire shape so no google/*.proto files are needed.
const RPC_TYPES = protobuf.parse(`
  syntax = "proto3";
  package google.rpc;
  message Any { string type_url = 1; bytes value = 2; }
  message Status { int32 code = 1; string message = 2; repeated Any details = 3; }
  message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
`, { keepCase: true }).root;

function options() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string', default: process.env.DUELHALL_SERVER || '127.0.0.1:50051' },
      seed: { type: 'string' },
      out: { type: 'string', default: 'replay.json' },
    },
  });
  const seed = values.seed === undefined ? crypto.randomInt(2 ** 32) : Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 32) {
    throw new Error(`--seed must be an integer in [0, 2^32), got ${values.seed}`);
  }
  return { server: values.server, seed, out: values.out };
}

// mulberry32: a tiny seedable generator, so --seed reproduces the client's choices.
function randomSource(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function loadMatchService() {
  const definition = protoLoader.loadSync('duelhall/v1/duelhall.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: true, // field names exactly as in the .proto: match_id, to_act, ...
    longs: Number, // versions stay far below 2^53
    enums: String,
    defaults: true, // empty to_act arrives as [], unset bools as false
  });
  return grpc.loadPackageDefinition(definition).duelhall.v1.MatchService;
}

// Each client gets its own subchannel pool, hence its own TCP connection to the server.
function connect(MatchService, server) {
  return new MatchService(server, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
}

function call(client, method, request) {
  const deadline = new Date(Date.now() + CALL_SECONDS * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

// Resolves with the number of updates once the one with match_ended arrives; rejects if a CardDrawn
// event shows the spectator a card, or if the stream ends or fails first.
function watchAsSpectator(client, matchId) {
  return new Promise((resolve, reject) => {
    const stream = client.WatchMatch({ match_id: matchId, token: '', from_version: 0 });
    let events = 0;
    let draws = 0;
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      stream.cancel();
      fn(value);
    };
    stream.on('data', (update) => {
      if (!update.event) return; // a presence update (a seat connected or left), not an event
      events += 1;
      if (update.event.type === 'CardDrawn') {
        draws += 1;
        const data = JSON.parse(update.event.data_json);
        if (data.card !== null || data.card_id !== null) {
          const { version, data_json: json } = update.event;
          settle(reject, new Error(`spectator saw a drawn card at version ${version}: ${json}`));
        }
      }
      if (update.match_ended) {
        if (draws === 0) settle(reject, new Error('spectator saw no CardDrawn event, so redaction went unchecked'));
        settle(resolve, events);
      }
    });
    stream.on('error', (err) => settle(reject, err));
    stream.on('end', () => settle(reject, new Error(`watch stream ended after ${events} events without match_ended`)));
  });
}

// One seat over its own Play stream: each response may carry the seat's turn (its legal commands once the
// stream has caught up); when the seat is the first one to_act names, it picks any legal command but concede.
// Resolves with the number of commands it sent once the stream ends after the match's last event.
function playSeat(client, matchId, token, seat, random) {
  return new Promise((resolve, reject) => {
    const call = client.Play();
    let commands = 0;
    let ended = false;
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      call.end();
      fn(value);
    };
    call.on('data', (response) => {
      const { result, turn } = response;
      if (result && result.error) {
        const { reason, message } = result.error;
        settle(reject, new Error(`seat ${seat}: command ${result.command_id} refused: ${reason}: ${message}`));
        return;
      }
      if (response.updates.some((update) => update.match_ended)) ended = true;
      if (!turn || turn.to_act.length === 0 || turn.to_act[0] !== seat) return;
      const choices = turn.commands_json.filter((json) => JSON.parse(json).type !== 'concede');
      if (choices.length === 0) {
        settle(reject, new Error(`seat ${seat} is to act but has no legal command besides concede`));
        return;
      }
      const command = choices[Math.floor(random() * choices.length)];
      call.write({ command: { command_json: command, command_id: crypto.randomUUID() } });
      commands += 1;
    });
    call.on('error', (err) => settle(reject, err));
    call.on('end', () => {
      if (ended) settle(resolve, commands);
      else settle(reject, new Error(`seat ${seat}: play stream ended before the match did`));
    });
    call.write({ start: { match_id: matchId, token, from_version: 0 } });
  });
}

// Random play for both seats, each on its own Play stream (and its own connection).
async function play(clients, matchId, tokens, random) {
  const counts = await Promise.all(clients.map((client, seat) => playSeat(client, matchId, tokens[seat], seat, random)));
  return counts.reduce((sum, count) => sum + count, 0);
}

function describeOutcome(outcomeJson) {
  const outcome = JSON.parse(outcomeJson);
  if (outcome.draw) return `draw (${outcome.reason})`;
  return `seat ${outcome.winners.join('+')} wins (${outcome.reason})`;
}

async function run({ server, seed, out }) {
  const MatchService = loadMatchService();
  const seats = [connect(MatchService, server), connect(MatchService, server)];
  const spectator = connect(MatchService, server);
  try {
    const created = await call(seats[0], 'CreateMatch', {
      ruleset: RULESET, seats: [{ name: 'north' }, { name: 'south' }], options_json: '',
    });
    const matchId = created.match.match_id;
    const tokens = [];
    for (const { seat, token } of created.tokens) tokens[seat] = token;

    const [events, commands] = await Promise.all([
      watchAsSpectator(spectator, matchId),
      play(seats, matchId, tokens, randomSource(seed)),
    ]);

    const match = await call(seats[0], 'GetMatch', { match_id: matchId });
    if (match.status !== 'MATCH_STATUS_ENDED') throw new Error(`match ${matchId} is ${match.status} after play`);

    const { replay } = await call(seats[0], 'ExportReplay', { match_id: matchId, token: '' });
    fs.writeFileSync(out, replay);
    const verdict = await call(seats[0], 'VerifyReplay', { replay });
    if (!verdict.ok) {
      const { check, version, message } = verdict.failure;
      throw new Error(`replay ${out} failed check ${check} at version ${version}: ${message}`);
    }
    console.log(`match ${matchId}: ${commands} commands, ${events} spectator events, `
      + `${describeOutcome(match.outcome_json)}; replay ${out} verified (seed ${seed})`);
  } finally {
    for (const client of [...seats, spectator]) client.close();
  }
}

// The google.rpc.ErrorInfo reason from a failed call's trailers, or undefined.
function errorReason(err) {
  const [details] = err.metadata ? err.metadata.get('grpc-status-details-bin') : [];
  if (!details) return undefined;
  const status = RPC_TYPES.lookupType('google.rpc.Status').decode(details);
  const info = status.details.find((any) => any.type_url.endsWith('/google.rpc.ErrorInfo'));
  return info && RPC_TYPES.lookupType('google.rpc.ErrorInfo').decode(info.value).reason;
}

function describeError(err) {
  if (typeof err.code !== 'number') return err.message;
  const name = Object.keys(grpc.status).find((key) => grpc.status[key] === err.code);
  const reason = errorReason(err);
  return `gRPC ${name} (${err.code})${reason ? ` ${reason}` : ''}: ${err.details}`;
}

async function main() {
  try {
    await run(options());
    return 0;
  } catch (err) {
    console.error(`error: ${describeError(err)}`);
    return 1;
  }
}

main().then((code) => process.exit(code));
