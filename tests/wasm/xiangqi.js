// The rules of xiangqi, written for the test page, apart from the engine's:
// the legal moves of a position, so that every move the engine plays is
// checked by code that shares none of its own.  Squares are rank * 9 +
// file, rank 0 Red's back rank, as in the engine's moves ("h2e2").
'use strict';

const Xiangqi = (() => {
    const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w';
    const red = (p) => p !== '.' && p === p.toUpperCase();
    const onBoard = (f, r) => f >= 0 && f < 9 && r >= 0 && r < 10;
    const inPalace = (f, r, isRed) => f >= 3 && f <= 5 && (isRed ? r <= 2 : r >= 7);

    function parse(fen) {
        const [rows, side] = fen.split(' ');
        const board = new Array(90).fill('.');
        rows.split('/').forEach((row, i) => {
            let f = 0;
            for (const c of row) {
                if (c >= '1' && c <= '9') f += Number(c);
                else board[(9 - i) * 9 + f++] = c;
            }
        });
        return { board, redToMove: side !== 'b' };
    }

    // Moves of the side to move that follow each piece's pattern, whether
    // or not they leave its own general in check.
    function pseudo(pos, isRed) {
        const b = pos.board, moves = [];
        const own = (p) => p !== '.' && red(p) === isRed;
        const add = (from, f, r) => {
            if (onBoard(f, r) && !own(b[r * 9 + f])) moves.push([from, r * 9 + f]);
        };
        for (let s = 0; s < 90; s++) {
            const p = b[s];
            if (!own(p)) continue;
            const f = s % 9, r = Math.floor(s / 9), t = p.toUpperCase();
            if (t === 'K') {
                for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]])
                    if (inPalace(f + df, r + dr, isRed)) add(s, f + df, r + dr);
            } else if (t === 'A') {
                for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]])
                    if (inPalace(f + df, r + dr, isRed)) add(s, f + df, r + dr);
            } else if (t === 'B') {
                for (const [df, dr] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) {
                    const nf = f + df, nr = r + dr;
                    if (!onBoard(nf, nr) || (isRed ? nr > 4 : nr < 5)) continue;
                    if (b[(r + dr / 2) * 9 + f + df / 2] === '.') add(s, nf, nr);
                }
            } else if (t === 'N') {
                for (const [df, dr] of [[1, 2], [-1, 2], [1, -2], [-1, -2], [2, 1], [2, -1], [-2, 1], [-2, -1]]) {
                    const lf = Math.abs(df) === 2 ? f + df / 2 : f, lr = Math.abs(dr) === 2 ? r + dr / 2 : r;
                    if (onBoard(f + df, r + dr) && b[lr * 9 + lf] === '.') add(s, f + df, r + dr);
                }
            } else if (t === 'R' || t === 'C') {
                for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
                    let nf = f + df, nr = r + dr, screen = false;
                    for (; onBoard(nf, nr); nf += df, nr += dr) {
                        const q = b[nr * 9 + nf];
                        if (t === 'R') {
                            if (q === '.') add(s, nf, nr);
                            else { add(s, nf, nr); break; }
                        } else if (!screen) {
                            if (q === '.') add(s, nf, nr);
                            else screen = true;
                        } else if (q !== '.') {
                            add(s, nf, nr); // takes only across one screen
                            break;
                        }
                    }
                }
            } else if (t === 'P') {
                const fwd = isRed ? 1 : -1, crossed = isRed ? r >= 5 : r <= 4;
                add(s, f, r + fwd);
                if (crossed) { add(s, f + 1, r); add(s, f - 1, r); }
            }
        }
        return moves;
    }

    function general(pos, isRed) {
        return pos.board.indexOf(isRed ? 'K' : 'k');
    }

    // Is the general of that side attacked, or facing the other on an open file?
    function inCheck(pos, isRed) {
        const k = general(pos, isRed), other = general(pos, !isRed);
        if (k < 0) return true;
        if (other >= 0 && k % 9 === other % 9) {
            let open = true;
            for (let s = Math.min(k, other) + 9; s < Math.max(k, other); s += 9)
                if (pos.board[s] !== '.') open = false;
            if (open) return true;
        }
        return pseudo(pos, !isRed).some(([, to]) => to === k);
    }

    function apply(pos, [from, to]) {
        const board = pos.board.slice();
        const captured = board[to];
        board[to] = board[from];
        board[from] = '.';
        return { board, redToMove: !pos.redToMove, captured };
    }

    function legal(pos) {
        return pseudo(pos, pos.redToMove).filter((m) => !inCheck(apply(pos, m), pos.redToMove));
    }

    const name = (s) => 'abcdefghi'[s % 9] + Math.floor(s / 9);
    const moveName = ([from, to]) => name(from) + name(to);

    // The position after a move given as text, or null when it is not legal.
    function play(pos, text) {
        const m = legal(pos).find((mv) => moveName(mv) === text);
        return m ? apply(pos, m) : null;
    }

    function key(pos) {
        return pos.board.join('') + (pos.redToMove ? 'w' : 'b');
    }

    // The board as text, Black at the top, as the page shows it.
    function draw(pos) {
        let out = '';
        for (let r = 9; r >= 0; r--) {
            out += r + ' ';
            for (let f = 0; f < 9; f++) out += pos.board[r * 9 + f] === '.' ? '+' : pos.board[r * 9 + f];
            out += '\n';
        }
        return out + '  abcdefghi\n';
    }

    return { START, parse, legal, play, inCheck, key, draw, moveName };
})();
