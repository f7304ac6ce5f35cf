// Who you are (#/account) and signing in (#/signin).  A guest keeps his player by giving it
// a passkey or a password (his name, ratings and games then follow him to any browser he
// signs in on); an account lists its ways to sign in, its recovery codes, its archive, the
// sign-outs, and erasing it.  The server checks everything (web/signin.py); a passkey is made
// and used by the browser (passkeys.js).

import { settingsHere } from "../memory.js";
import { api, app, byId, element, errorText, forgetWho, toast } from "../page.js";
import { creationOptions, credentialJSON, passkeysWork, requestOptions } from "../passkeys.js";
import { escapeHTML as esc, language, t, tn } from "../words.js";

/** @import { Screen } from "../page.js" */

/**
 * @typedef {object} Me
 * @property {string} id
 * @property {string} name
 * @property {boolean} named  he gave the name (else it is made up)
 * @property {boolean} guest
 * @property {Record<string, any>} settings
 */

/**
 * @typedef {object} Account
 * @property {string | null} login
 * @property {{id: string, created: number, used: number | null}[]} passkeys
 * @property {number} recovery_codes
 * @property {number} sessions
 * @property {boolean} guest
 * @property {string[]} [recovery_codes_new]  shown once, in the answer that made them
 */

/** @typedef {(me: Me, next?: string) => Promise<void>} SignedIn */

/** @param {number} seconds */
const day = (seconds) => new Date(seconds * 1000).toLocaleDateString(language());

/** A passkey made by this browser for the player, kept by the server. */
async function makePasskey() {
  const options = await api("/api/account/passkey/options", {});
  const made = await navigator.credentials.create({ publicKey: creationOptions(options) });
  if (!made) throw new Error(t("No passkey was made."));
  /** @type {Account} */
  const account = await api("/api/account/passkey", { credential: credentialJSON(/** @type {PublicKeyCredential} */ (made)) });
  return account;
}

/** The recovery codes just made, shown once with what they are for.
 * @param {string[]} codes */
function showCodes(codes) {
  const box = byId("codes");
  box.innerHTML = `<h2>${esc(t("Your recovery codes"))}</h2>
    <p>${esc(t("Write them down or keep them somewhere safe: each one signs you in once if you lose your phone or forget your password. They are not shown again."))}</p>
    <ol class="codes">${codes.map((c) => `<li><code>${esc(c)}</code></li>`).join("")}</ol>
    <button type="button" id="codes-done" class="primary">${esc(t("I kept them"))}</button>`;
  box.hidden = false;
  box.scrollIntoView({ block: "start" });
  byId("codes-done").addEventListener("click", () => {
    box.hidden = true;
    box.innerHTML = "";
  });
}

/**
 * @param {SignedIn} signedIn  what to do once the browser is signed in (or out)
 * @returns {Screen}
 */
export function showAccount(signedIn) {
  document.title = t("Conquian — your account");
  app.innerHTML = `<section class="panel account"><p class="small">${esc(t("Loading…"))}</p></section>`;
  let closed = false;
  /** @param {Account} [fresh] the answer of a change, whose new codes are shown */
  const draw = async (fresh) => {
    /** @type {Me} */
    const me = await api("/api/me");
    /** @type {Account} */
    const account = fresh && !fresh.recovery_codes_new ? fresh : await api("/api/account");
    if (closed) return;
    const passkeyButton = passkeysWork()
      ? `<button type="button" id="add-passkey" class="${me.guest ? "primary" : ""}">${esc(me.guest ? t("Make a passkey") : t("Add a passkey"))}</button>`
      : `<p class="small">${esc(t("This browser cannot make passkeys."))}</p>`;
    const passwordForm = `<form id="password-form" class="stack">
        <label>${esc(t("Login name"))} <input id="login" name="username" autocomplete="username" maxlength="32" required value="${esc(account.login || "")}"></label>
        ${account.login ? `<label>${esc(t("Password now"))} <input id="current" type="password" autocomplete="current-password" maxlength="128" required></label>` : ""}
        <label>${esc(account.login ? t("New password") : t("Password"))} <input id="password" type="password" autocomplete="new-password" minlength="8" maxlength="128" required></label>
        <button type="submit">${esc(account.login ? t("Change the password") : t("Keep with a password"))}</button>
      </form>`;
    app.innerHTML = `<section class="panel account">
      <h1>${esc(me.guest ? t("Who you are") : t("Your account"))}</h1>
      <form id="name-form" class="inline">
        <label>${esc(t("Your name"))} <input id="me-name" maxlength="24" autocomplete="nickname" value="${esc(me.named ? me.name : "")}" placeholder="${esc(me.name)}"></label>
        <button type="submit">${esc(t("Save"))}</button>
      </form>
      <p class="small">${esc(t("The players at your table and the leaderboards show this name."))} <a href="#/player/${encodeURIComponent(me.id)}">${esc(t("Your profile"))}</a></p>
      <div id="codes" class="codes-box" hidden></div>
      ${
        me.guest
          ? `<h2>${esc(t("Keep your player"))}</h2>
        <p>${esc(t("You play as a guest: your name, ratings and games are kept for this browser only. Make an account to have them on any phone or computer. No e-mail is needed."))}</p>
        <p>${passkeyButton} <span class="small">${esc(t("A passkey signs you in with your phone's or computer's lock: fingerprint, face or PIN."))}</span></p>
        <details id="password-box"><summary>${esc(t("Or use a login name and a password"))}</summary>${passwordForm}</details>
        <p>${esc(t("Have an account already?"))} <a href="#/signin">${esc(t("Sign in"))}</a></p>`
          : `<h2>${esc(t("How you sign in"))}</h2>
        <ul class="list" id="passkey-list">${account.passkeys
          .map(
            (k) =>
              `<li>${esc(t("Passkey made {date}", { date: day(k.created) }))}${k.used ? ` <span class="small">${esc(t("last used {date}", { date: day(k.used) }))}</span>` : ""} <button type="button" class="small-btn" data-remove="${esc(k.id)}">${esc(t("Remove"))}</button></li>`,
          )
          .join("")}</ul>
        <p>${passkeyButton}</p>
        <details id="password-box"><summary>${esc(account.login ? t("Password of {login}", { login: account.login }) : t("Add a login name and a password"))}</summary>${passwordForm}</details>
        <h3>${esc(t("Recovery codes"))}</h3>
        <p>${esc(tn("{count} recovery code left.", "{count} recovery codes left.", account.recovery_codes))} <button type="button" id="new-codes" class="small-btn">${esc(t("New recovery codes"))}</button></p>
        <h2>${esc(t("Sign out"))}</h2>
        <p class="small">${esc(tn("Signed in on {count} browser.", "Signed in on {count} browsers.", account.sessions))}</p>
        <p><button type="button" id="sign-out">${esc(t("Sign out"))}</button> <button type="button" id="sign-out-all">${esc(t("Sign out everywhere"))}</button></p>`
      }
      <h2>${esc(t("Your games"))}</h2>
      <p><a href="/api/me/archive" id="archive" download>${esc(t("Download all my games"))}</a> <span class="small">${esc(t("The record of every deal you finished, in one zip file."))}</span></p>
      <p class="small">${esc(t("Your settings (language, cards, sound and automatic moves) are kept with your player."))}</p>
      <h2>${esc(t("Delete my account"))}</h2>
      <p class="small">${esc(t("Erases your name, settings, ways to sign in and ratings. Your games stay for the other players, with a seat's number instead of your name."))}</p>
      <p><button type="button" id="erase" class="danger">${esc(t("Delete my account"))}</button></p>
    </section>`;
    if (fresh && fresh.recovery_codes_new) showCodes(fresh.recovery_codes_new);
    wire(me, account);
  };
  /** Run a change; its answer redraws the page (an error is said, nothing changed).
   * @param {() => Promise<Account | void>} change */
  const act = async (change) => {
    try {
      const answer = await change();
      await draw(answer || undefined);
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  /**
   * Sign out (or erase the account) with a POST of `body` to `path`; a refusal is said and
   * changes nothing.  Once done, this browser is nobody, so the page forgets who it was and
   * goes home as whoever the server says it is next.  If the server cannot say yet (busy,
   * offline), the page says why and goes home all the same: it does not stay on the account
   * it left.
   * @param {string} path @param {object} body @param {string} said */
  const leave = async (path, body, said) => {
    try {
      await api(path, body);
    } catch (err) {
      toast(errorText(err), "error");
      return;
    }
    toast(said);
    forgetWho();
    /** @type {Partial<Me>} */
    const me = await api("/api/me").catch((/** @type {unknown} */ err) => {
      toast(`${said} ${errorText(err)}`, "error");
      return {};
    });
    await signedIn(/** @type {Me} */ (me), "#/");
  };
  /** @param {Me} me @param {Account} account */
  const wire = (me, account) => {
    byId("name-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const name = element("me-name", HTMLInputElement).value.trim();
      if (!name) return;
      act(async () => {
        await api("/api/me", { name });
        toast(t("Saved."));
      });
    });
    document.getElementById("add-passkey")?.addEventListener("click", () =>
      act(async () => {
        const made = await makePasskey();
        if (me.guest) await api("/api/me/settings", settingsHere()).catch(() => null);
        toast(t("Passkey kept."));
        return made;
      }),
    );
    byId("password-form").addEventListener("submit", (e) => {
      e.preventDefault();
      /** @type {Record<string, string>} */
      const body = { login: element("login", HTMLInputElement).value, password: element("password", HTMLInputElement).value };
      if (account.login) body.current = element("current", HTMLInputElement).value;
      act(async () => {
        /** @type {Account} */
        const made = await api("/api/account/password", body);
        if (me.guest) await api("/api/me/settings", settingsHere()).catch(() => null);
        toast(t("Password kept."));
        return made;
      });
    });
    document.querySelectorAll("[data-remove]").forEach((button) =>
      button.addEventListener("click", () =>
        act(async () => {
          if (!confirm(t("Remove this passkey? It will not sign you in any more."))) return;
          return api("/api/account/passkey/remove", { id: button.getAttribute("data-remove") });
        }),
      ),
    );
    document.getElementById("new-codes")?.addEventListener("click", () =>
      act(async () => {
        if (!confirm(t("Make new recovery codes? The ones you have stop working."))) return;
        return api("/api/account/recovery-codes", {});
      }),
    );
    for (const [id, everywhere] of /** @type {[string, boolean][]} */ ([["sign-out", false], ["sign-out-all", true]])) {
      document.getElementById(id)?.addEventListener("click", () => leave("/api/signout", { everywhere }, t("Signed out.")));
    }
    byId("erase").addEventListener("click", () => {
      if (!confirm(t("Delete your account for good? Your name, ratings and ways to sign in are erased; this cannot be undone."))) return;
      leave("/api/account/delete", { erase: true }, t("Your account is deleted."));
    });
  };
  draw().catch((err) => {
    app.innerHTML = `<section class="panel account"><p class="error">${esc(errorText(err))}</p></section>`;
  });
  return {
    close: () => {
      closed = true;
    },
  };
}

/**
 * @param {SignedIn} signedIn
 * @returns {Screen}
 */
export function showSignIn(signedIn) {
  document.title = t("Conquian — sign in");
  app.innerHTML = `<section class="panel account">
    <h1>${esc(t("Sign in"))}</h1>
    ${passkeysWork() ? `<p><button type="button" id="passkey-sign-in" class="primary">${esc(t("Sign in with a passkey"))}</button></p>` : ""}
    <form id="password-sign-in" class="stack">
      <label>${esc(t("Login name"))} <input id="login" name="username" autocomplete="username" maxlength="32" required></label>
      <label>${esc(t("Password"))} <input id="password" type="password" autocomplete="current-password" maxlength="128" required></label>
      <button type="submit">${esc(t("Sign in"))}</button>
    </form>
    <details><summary>${esc(t("Lost your phone or your password? Use a recovery code"))}</summary>
      <form id="recovery-sign-in" class="stack">
        <label>${esc(t("Recovery code"))} <input id="code" autocomplete="one-time-code" maxlength="40" required></label>
        <button type="submit">${esc(t("Sign in"))}</button>
      </form>
    </details>
    <p class="small">${esc(t("No account yet? Play as a guest, and keep your player from your account page."))} <a href="#/account">${esc(t("Your account"))}</a></p>
  </section>`;
  /** @param {() => Promise<any>} attempt */
  const signIn = async (attempt) => {
    try {
      const me = await attempt();
      toast(t("Signed in as {name}.", { name: me.name }));
      await signedIn(me, "#/account");
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  document.getElementById("passkey-sign-in")?.addEventListener("click", () =>
    signIn(async () => {
      const options = await api("/api/signin/passkey/options", {});
      const used = await navigator.credentials.get({ publicKey: requestOptions(options) });
      if (!used) throw new Error(t("No passkey was used."));
      return api("/api/signin/passkey", { credential: credentialJSON(/** @type {PublicKeyCredential} */ (used)) });
    }),
  );
  byId("password-sign-in").addEventListener("submit", (e) => {
    e.preventDefault();
    signIn(() => api("/api/signin/password", { login: element("login", HTMLInputElement).value, password: element("password", HTMLInputElement).value }));
  });
  byId("recovery-sign-in").addEventListener("submit", (e) => {
    e.preventDefault();
    signIn(() => api("/api/signin/recovery", { code: element("code", HTMLInputElement).value }));
  });
  return { close: () => {} };
}
