// The test page's driver: the engine in a Web Worker, spoken to as a web
// board does (postMessage in, a line per message out), plays a whole game
// against itself over UCI, every move checked by xiangqi.js and shown;
// then `stop` during `go infinite`, UCCI and xboard, and `chuhan bench` in
// a worker of its own against the native node count.  Parameters in the page's URL:
//   engine=URL of chuhan.js   bench=the native bench's node count
//   threads=N for the game (default 2; 1 where the page is not isolated)
//   measure=words: a command line to run and report (chuhan.js?words)
// The verdict goes to the server as a POST to /report (tests/wasm/serve.py):
// {ok, checks: [lines], output: {...}}.
'use strict';

const params = new URLSearchParams(location.search);
const engineUrl = params.get('engine') || '../../build/emcc-wasm/chuhan.js';
const checks = [];
let failed = false;

function log(ok, text) {
    const line = (ok ? 'ok   ' : 'FAIL ') + text;
    checks.push(line);
    if (!ok) failed = true;
    document.getElementById('log').textContent += line + '\n';
    console.log('check: ' + line);
}

// An engine in a worker: lines out as they come, and a wait for the first
// line that matches, within a time limit.
class Engine {
    constructor(url) {
        this.lines = [];
        this.waiters = [];
        this.worker = new Worker(url);
        this.worker.onmessage = (e) => {
            this.lines.push(e.data);
            if (/^info string fatal error: /.test(e.data)) { // the engine is dead: no wait for it
                this.failAll(e.data);
                return;
            }
            this.waiters = this.waiters.filter((w) => !w.test(e.data) || (w.resolve(e.data), false));
        };
        this.worker.onerror = (e) => {
            this.lines.push('worker error: ' + e.message);
            this.failAll('worker error: ' + e.message);
        };
    }
    // Every wait under way fails with the reason, at once.
    failAll(reason) {
        this.waiters.forEach((w) => w.reject(new Error(reason)));
        this.waiters = [];
    }
    send(line) {
        this.worker.postMessage(line);
    }
    wait(pattern, ms, what) {
        const test = (line) => pattern.test(line);
        return new Promise((resolve, reject) => {
            const waiter = {
                test,
                resolve: (l) => { clearTimeout(timer); resolve(l); },
                reject: (err) => { clearTimeout(timer); reject(err); },
            };
            // a wait that times out leaves the list: no later line settles it
            const timer = setTimeout(() => {
                this.waiters = this.waiters.filter((w) => w !== waiter);
                reject(new Error('no ' + what + ' within ' + ms + ' ms'));
            }, ms);
            this.waiters.push(waiter);
        });
    }
    terminate() {
        this.worker.terminate();
    }
}

function show(pos, moves, status) {
    document.getElementById('board').textContent = Xiangqi.draw(pos);
    document.getElementById('moves').textContent = moves.join(' ');
    document.getElementById('status').textContent = status;
}

async function handshake(engine, isolated) {
    engine.send('uci');
    await engine.wait(/^uciok$/, 60000, 'uciok');
    const opt = engine.lines.find((l) => /^option name Threads /.test(l)) || '';
    const max = Number((opt.match(/ max (\d+)/) || [])[1]);
    log(isolated ? max > 1 : max === 1,
        'Threads ' + (isolated ? 'up to ' + max + ' (the page is cross-origin isolated: pthreads)'
                               : 'is 1 at most (the page is not isolated: the single-thread build)'));
    const hash = engine.lines.find((l) => /^option name Hash /.test(l)) || '';
    log(/ max \d+/.test(hash), 'Hash: ' + hash.replace(/^option name Hash type spin /, ''));
    return max;
}

// One game to its end: no legal move for the side to move (it loses), the
// same position a third time, or 120 plies without a capture (draws for
// the test; the engine's own rules are stricter); 400 plies at most.
async function selfplay(engine, threads) {
    engine.send('setoption name Threads value ' + threads);
    engine.send('setoption name Hash value 32');
    engine.send('ucinewgame');
    engine.send('isready');
    await engine.wait(/^readyok$/, 30000, 'readyok');
    let pos = Xiangqi.parse(Xiangqi.START);
    const moves = [], seen = new Map();
    let quiet = 0, result = '';
    const t0 = performance.now();
    for (;;) {
        const k = Xiangqi.key(pos);
        seen.set(k, (seen.get(k) || 0) + 1);
        const side = pos.redToMove ? 'Red' : 'Black';
        if (Xiangqi.legal(pos).length === 0) {
            result = (pos.redToMove ? '0-1' : '1-0') + ' (' + side + ' has no move'
                + (Xiangqi.inCheck(pos, pos.redToMove) ? ': mate)' : ')');
            break;
        }
        if (seen.get(k) >= 3) { result = '1/2-1/2 (repetition)'; break; }
        if (quiet >= 120) { result = '1/2-1/2 (120 plies without a capture)'; break; }
        if (moves.length >= 400) { result = 'stopped at 400 plies'; break; }
        engine.send('position startpos' + (moves.length ? ' moves ' + moves.join(' ') : ''));
        engine.send('go movetime 40');
        const line = await engine.wait(/^bestmove /, 20000, 'bestmove at ply ' + moves.length);
        const move = line.split(' ')[1];
        const next = Xiangqi.play(pos, move);
        if (!next) {
            log(false, 'ply ' + (moves.length + 1) + ': ' + move + ' is not a legal move for ' + side);
            return;
        }
        quiet = next.captured !== '.' ? 0 : quiet + 1;
        moves.push(move);
        pos = next;
        show(pos, moves, 'ply ' + moves.length + ', ' + side + ' played ' + move);
    }
    show(pos, moves, 'game over: ' + result);
    const each = Math.round((performance.now() - t0) / Math.max(moves.length, 1));
    log(moves.length > 0, 'a game of ' + moves.length + ' plies (' + each + ' ms a move), every move legal: ' + result);
    return moves;
}

// stop during go infinite: the search answers at once with a legal move,
// and isready is answered while it runs.
async function stopInfinite(engine) {
    const pos = Xiangqi.parse(Xiangqi.START);
    engine.send('position startpos');
    engine.send('go infinite');
    const from = engine.lines.length;
    await engine.wait(/^info depth 8 /, 30000, 'info depth 8 during go infinite');
    engine.send('isready');
    await engine.wait(/^readyok$/, 5000, 'readyok during the search');
    const early = engine.lines.slice(from).find((l) => /^bestmove /.test(l));
    log(!early, early ? 'go infinite ended before stop: ' + early : 'go infinite still searching after isready');
    const t0 = performance.now();
    engine.send('stop');
    const line = await engine.wait(/^bestmove /, 5000, 'bestmove after stop');
    const ms = Math.round(performance.now() - t0);
    const move = line.split(' ')[1];
    log(Xiangqi.play(pos, move) !== null, 'stop during go infinite: ' + line + ' after ' + ms + ' ms');
}

// UCCI and xboard, each in a worker of its own: the handshake and a move.
async function otherProtocols() {
    const ucci = new Engine(engineUrl);
    try {
        ucci.send('ucci');
        await ucci.wait(/^ucciok$/, 60000, 'ucciok');
        ucci.send('position startpos');
        ucci.send('go depth 6');
        const line = await ucci.wait(/^bestmove /, 30000, 'a UCCI bestmove');
        log(Xiangqi.play(Xiangqi.parse(Xiangqi.START), line.split(' ')[1]) !== null, 'UCCI: ' + line);
    } finally {
        ucci.terminate();
    }
    const xboard = new Engine(engineUrl);
    try {
        xboard.send('xboard');
        xboard.send('protover 2');
        await xboard.wait(/^feature .*done=1/, 60000, 'the xboard features');
        for (const line of ['new', 'variant xiangqi', 'sd 6', 'go']) xboard.send(line);
        const line = await xboard.wait(/^move /, 30000, 'an xboard move');
        log(/^move [a-i][0-9]+[a-i][0-9]+$/.test(line), 'xboard: ' + line);
    } finally {
        xboard.terminate();
    }
}

// `chuhan bench` in a worker of its own: its node count and speed.
async function runCommand(words, until, ms) {
    const sep = engineUrl.includes('?') ? '&' : '?';
    const engine = new Engine(engineUrl + sep + words.split(' ').map(encodeURIComponent).join('+'));
    try {
        await engine.wait(until, ms, 'the end of "' + words + '"');
        return engine.lines;
    } finally {
        engine.terminate();
    }
}

async function main() {
    const isolated = self.crossOriginIsolated === true;
    const output = {};
    log(true, 'page ' + (isolated ? 'is' : 'is not') + ' cross-origin isolated; engine ' + engineUrl);
    const engine = new Engine(engineUrl);
    try {
        const max = await handshake(engine, isolated);
        const threads = Math.min(Number(params.get('threads') || 2), max);
        const moves = await selfplay(engine, threads);
        if (moves) output.game = moves.join(' ');
        await stopInfinite(engine);
        engine.send('quit');
        await otherProtocols();
        const expect = params.get('bench');
        if (expect) {
            const lines = await runCommand('bench', /^Nodes searched/, 600000);
            const nodes = (lines.find((l) => /^Nodes searched/.test(l)) || '').replace(/\D+/g, '');
            const nps = (lines.find((l) => /^Nodes\/second/.test(l)) || '').replace(/\D+/g, '');
            log(nodes === expect, 'bench: ' + nodes + ' nodes (native: ' + expect + '), ' + nps + ' nodes/second');
            output.bench_nps = Number(nps);
        }
        const measure = params.get('measure');
        if (measure) output.measure = await runCommand(measure, /^(time to depth|Nodes searched)/, 600000);
    } catch (e) {
        log(false, String(e.message || e));
        output.engine_tail = engine.lines.slice(-20);
    }
    engine.terminate();
    log(!failed, failed ? 'the page found a fault' : 'all checks passed');
    document.body.dataset.verdict = failed ? 'fail' : 'pass';
    await fetch('/report', { method: 'POST', body: JSON.stringify({ ok: !failed, checks, output }) });
}

main();
