// The game's websocket: it connects (the hello first: the seat token goes there, never in the
// URL), puts back the whole lists of each state sent with deltas, numbers the moves it sends
// (the server acknowledges each with its id in the state it answers with), and connects
// again by itself after a pause that grows, until it is closed.

import { wholeLists } from "./state.js";

/** @import { ClientMessage, ServerMessage, StateMessage } from "../protocol.js" */

/**
 * What the screen does with the connection's events.
 * @typedef {object} SocketHandlers
 * @property {() => ClientMessage} opened  a connection opened: the first message to send on it
 * @property {(msg: StateMessage) => void} state  a state, its lists whole
 * @property {(msg: Exclude<ServerMessage, StateMessage>) => void} message  any other message
 * @property {() => void} lost  the connection closed: it connects again after a pause
 */

/**
 * @typedef {object} GameSocket
 * @property {(message: ClientMessage) => boolean} send  false when not connected
 * @property {(action: string) => boolean} act  send a move with the next id
 * @property {() => boolean} open  whether the connection is open now
 * @property {() => void} close  for good
 */

/** How long to wait before connecting again, after `retries` failed tries (ms).
 * @param {number} retries */
export const retryWait = (retries) => Math.min(5000, 300 * 2 ** retries);

/**
 * Connect to game `id` and keep connected.
 * @param {string} id
 * @param {SocketHandlers} on
 * @returns {GameSocket}
 */
export function gameSocket(id, on) {
  /** @type {WebSocket | null} */
  let socket = null;
  let closed = false;
  let retries = 0;
  let nextId = 1;

  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(id)}`);
    socket = ws;
    /** @type {StateMessage | null} */
    let received = null; // the last state this socket brought, its lists whole
    ws.onopen = () => {
      retries = 0;
      ws.send(JSON.stringify(on.opened()));
    };
    ws.onmessage = (event) => {
      /** @type {ServerMessage} */
      const msg = JSON.parse(event.data);
      if (msg.type === "state") {
        received = wholeLists(msg, received);
        on.state(received);
      } else {
        on.message(msg);
      }
    };
    ws.onclose = () => {
      if (socket !== ws || closed) return;
      on.lost();
      setTimeout(() => {
        if (!closed) connect();
      }, retryWait(retries++));
    };
  };

  const isOpen = () => !!socket && socket.readyState === WebSocket.OPEN;
  /** @param {ClientMessage} message */
  const send = (message) => {
    if (!socket || !isOpen()) return false;
    socket.send(JSON.stringify(message));
    return true;
  };
  connect();
  return {
    send,
    act: (action) => send({ type: "act", action, id: nextId++ }),
    open: isOpen,
    close: () => {
      closed = true;
      if (socket) {
        socket.onclose = null;
        socket.close();
        socket = null;
      }
    },
  };
}
