// Passkeys in the browser (WebAuthn): the server's options (JSON, binary fields as base64url)
// made into what navigator.credentials takes, and the browser's answer made into JSON for the
// server (its toJSON() where the browser has it).  The server checks everything; this only
// carries it.

/** @param {string} text base64url @returns {ArrayBuffer} */
export function fromBase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  const bytes = new Uint8Array(plain.length);
  for (let k = 0; k < plain.length; k += 1) bytes[k] = plain.charCodeAt(k);
  return bytes.buffer;
}

/** @param {ArrayBuffer | ArrayBufferView} data @returns {string} base64url */
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let plain = "";
  for (const b of bytes) plain += String.fromCharCode(b);
  return btoa(plain).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Whether this browser can make and use passkeys. */
export const passkeysWork = () => typeof window !== "undefined" && "PublicKeyCredential" in window && !!navigator.credentials;

/**
 * The options of navigator.credentials.create, from the server's.
 * @param {any} options
 * @returns {PublicKeyCredentialCreationOptions}
 */
export function creationOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((/** @type {any} */ c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/**
 * The options of navigator.credentials.get, from the server's.
 * @param {any} options
 * @returns {PublicKeyCredentialRequestOptions}
 */
export function requestOptions(options) {
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((/** @type {any} */ c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

/**
 * A credential as JSON for the server.
 * @param {PublicKeyCredential} credential
 * @returns {Record<string, unknown>}
 */
export function credentialJSON(credential) {
  const response = /** @type {any} */ (credential.response);
  /** @type {Record<string, string | null>} */
  const out = { clientDataJSON: toBase64url(response.clientDataJSON) };
  for (const name of ["attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (response[name]) out[name] = toBase64url(response[name]);
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: out,
    clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    authenticatorAttachment: credential.authenticatorAttachment || null,
  };
}
