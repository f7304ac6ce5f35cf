// ESLint on the browser page (src/conquian/web/static) and its unit tests (tests/js): the
// recommended rules, and a few more that catch real bugs.  `npx eslint` checks every file
// named here; see docs/web.md, "The page's modules".

import js from "@eslint/js";
import globals from "globals";

const PAGE = "src/conquian/web/static/**/*.js";
/** The modules that hold no DOM (node imports them in tests/js): no browser globals. */
const PURE = [
  "src/conquian/web/static/words.js",
  "src/conquian/web/static/seats.js",
  "src/conquian/web/static/protocol.js",
  "src/conquian/web/static/game/events.js",
  "src/conquian/web/static/game/state.js",
  "src/conquian/web/static/game/scene.js",
];

export default [
  { ignores: ["node_modules/", ".venv*/", "build/", "dist/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2024, sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: "error",
      "array-callback-return": "error",
      "default-case-last": "error",
      "no-constructor-return": "error",
      "no-promise-executor-return": "error",
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      // a const or let read before its line runs (the temporal dead zone): a ReferenceError
      "no-use-before-define": ["error", { functions: false, classes: true, variables: false }],
      // the content security policy forbids them: they would fail in the page
      "no-eval": "error",
      "no-implied-eval": "error",
      "no-new-func": "error",
      "no-script-url": "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },
  { files: [PAGE], ignores: [...PURE, "src/conquian/web/static/sw.js"], languageOptions: { globals: globals.browser } },
  { files: ["src/conquian/web/static/sw.js"], languageOptions: { globals: globals.serviceworker } },
  {
    // what node and browsers both have (fetch, URL, timers...), not the DOM; and a GameState
    // is never changed: the functions that make the next one change no argument
    files: PURE,
    languageOptions: { globals: globals["shared-node-browser"] },
    rules: { "no-param-reassign": ["error", { props: true }] },
  },
  { files: ["tests/js/**/*.js", "eslint.config.js"], languageOptions: { globals: globals.node } },
];
