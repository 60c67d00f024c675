// The worker's side of the engine (emcc --pre-js, in chuhan.js): the page
// runs chuhan.js as a Web Worker, posts it lines (UCI, UCCI or xboard, as
// on stdin) and gets each line the engine prints as a message.  A worker
// made as chuhan.js?bench (words joined by '+' or '&') runs that command
// line instead: `chuhan bench`, posting its output.  The pthreads' workers
// load this script too: there it does nothing.
if (!Module['ENVIRONMENT_IS_PTHREAD'] && typeof importScripts === 'function') {
    (function () {
        var query = self.location.search.slice(1);
        if (query)
            Module['arguments'] = query.split(/[+&]/).filter(function (w) { return w; }).map(decodeURIComponent);
        function post(line) { postMessage(line); }
        Module['print'] = Module['print'] || post;
        Module['printErr'] = Module['printErr'] || post;
        if (!self.crossOriginIsolated)
            post('info string chuhan.js needs a cross-origin isolated page (served with Cross-Origin-Opener-Policy: '
                 + 'same-origin and Cross-Origin-Embedder-Policy: require-corp): its threads share memory');

        // Lines wait here until the protocol's queue exists (main() makes
        // it, engine/util/webinput_wasm.c, and calls chuhanFlush).
        var pending = [];
        function flush() {
            var queue = Module['chuhanInput'];
            while (queue && pending.length) {
                var text = pending.shift();
                var size = lengthBytesUTF8(text) + 1;
                var ptr = _malloc(size);
                if (!ptr) {
                    post('info string out of memory: input line dropped');
                    continue;
                }
                stringToUTF8(text, ptr, size);
                if (_webinput_push(queue, ptr) !== 0)
                    post('info string out of memory: input line dropped');
                _free(ptr);
            }
        }
        Module['chuhanFlush'] = flush;
        self.onmessage = function (e) {
            var lines = String(e.data).split(/\r?\n/);
            if (lines.length > 1 && lines[lines.length - 1] === '')
                lines.pop();
            Array.prototype.push.apply(pending, lines);
            flush();
        };
    })();
}
