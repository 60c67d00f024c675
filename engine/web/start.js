// The worker's side of the engine (emcc --extern-post-js, at the end of
// chuhan.js and of chuhan-single.js, each of which defines a factory: Chuhan
// and ChuhanSingle).  The page runs chuhan.js as a Web Worker, posts it
// lines (UCI, UCCI or xboard, as on stdin) and gets each line the engine
// prints as a message.  Where the page is cross-origin isolated, chuhan.js
// starts its own build, whose search threads are pthreads on shared
// memory; elsewhere there is no shared memory, and it loads and starts
// chuhan-single.js, the engine on the worker's one thread (Threads 1).  A
// worker made as chuhan.js?bench (words joined by '+' or '&') runs that
// command line instead: `chuhan bench`, posting its output.  The pthreads'
// own workers load chuhan.js too, and start it themselves.
(function () {
    if (typeof importScripts !== 'function' || self.chuhanStarted)
        return;
    if (typeof Module !== 'undefined' && Module['ENVIRONMENT_IS_PTHREAD'])
        return;
    var factory = typeof Chuhan === 'function' && self.crossOriginIsolated ? Chuhan : null;
    if (!factory) {
        if (typeof ChuhanSingle !== 'function') {
            self.chuhanStarted = true; // what it runs at its end must not start it too
            importScripts(new URL('chuhan-single.js', self.location.href).href);
        }
        factory = ChuhanSingle;
    }
    self.chuhanStarted = true;

    function post(line) { postMessage(line); }
    // A trap in the engine where a promise runs it (the single-thread build
    // resumes from its pauses in promise callbacks) would end it without a
    // word, the page waiting for ever: say it as the protocols say errors.
    self.addEventListener('unhandledrejection', function (e) {
        var why = e.reason && e.reason.message ? e.reason.message : String(e.reason);
        post('info string fatal error: ' + why);
    });
    var mod = { print: post, printErr: post };
    if (factory === (typeof Chuhan === 'function' ? Chuhan : null))
        mod.mainScriptUrlOrBlob = self.location.href; // what the pthreads' workers load
    var query = self.location.search.slice(1);
    if (query)
        mod.arguments = query.split(/[+&]/).filter(function (w) { return w; }).map(decodeURIComponent);

    // Lines wait here until the protocol's queue exists (main() makes it,
    // engine/util/webinput_wasm.c, and calls chuhanFlush).
    var pending = [];
    mod.chuhanFlush = function () {
        var queue = mod.chuhanInput;
        while (queue && pending.length) {
            var text = pending.shift();
            var size = mod.lengthBytesUTF8(text) + 1;
            var ptr = mod._malloc(size);
            if (!ptr) {
                post('info string out of memory: input line dropped');
                continue;
            }
            mod.stringToUTF8(text, ptr, size);
            if (mod._webinput_push(queue, ptr) !== 0)
                post('info string out of memory: input line dropped');
            mod._free(ptr);
        }
        if (mod.chuhanWake) // the single-thread build waits for input (engine/util/coop_wasm.c)
            mod.chuhanWake();
    };
    self.onmessage = function (e) {
        var lines = String(e.data).split(/\r?\n/);
        if (lines.length > 1 && lines[lines.length - 1] === '')
            lines.pop();
        Array.prototype.push.apply(pending, lines);
        mod.chuhanFlush();
    };
    factory(mod);
})();
