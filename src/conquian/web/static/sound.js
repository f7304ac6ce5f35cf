// Short sounds of the table, made with the Web Audio API (no sound files): a card dealt,
// taken, discarded, a force, and the end of a deal.  Off until the player turns them on.

/** @type {AudioContext | null} */
let context = null;

/** Make (or wake) the audio context: call it from a click, as browsers ask. */
export function wakeSound() {
  try {
    context = context || new AudioContext();
    if (context.state === "suspended") context.resume();
  } catch {
    context = null;
  }
  return context !== null;
}

/** A tone from `at` (seconds on the audio's clock) for `length` seconds.
 * @param {AudioContext} audio
 * @param {number} at
 * @param {number} freq
 * @param {number} length
 * @param {{type?: OscillatorType, gain?: number, to?: number | null}} [shape] */
function tone(audio, at, freq, length, { type = "sine", gain = 0.07, to = null } = {}) {
  const osc = audio.createOscillator();
  const amp = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.008);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(audio.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A card sliding on the felt: a short burst of filtered noise.
 * @param {AudioContext} audio
 * @param {number} at */
function swish(audio, at, length = 0.09, gain = 0.18, pitch = 2400) {
  const frames = Math.ceil(audio.sampleRate * length);
  const buffer = audio.createBuffer(1, frames, audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = pitch;
  filter.Q.value = 0.8;
  const amp = audio.createGain();
  amp.gain.value = gain;
  source.connect(filter).connect(amp).connect(audio.destination);
  source.start(at);
}

/** @typedef {"deal" | "take" | "discard" | "force" | "end"} SoundKind */

/** Each sound, played from `t` on the context's clock.
 * @type {Record<SoundKind, (c: AudioContext, t: number) => void>} */
const SOUNDS = {
  deal: (c, t) => {
    for (let i = 0; i < 5; i++) swish(c, t + i * 0.06, 0.07, 0.14, 2000 + i * 150);
  },
  take: (c, t) => {
    swish(c, t, 0.08, 0.14);
    tone(c, t + 0.03, 523, 0.12, { gain: 0.06 });
    tone(c, t + 0.1, 784, 0.16, { gain: 0.06 });
  },
  discard: (c, t) => {
    swish(c, t, 0.11, 0.2, 1800);
    tone(c, t + 0.05, 220, 0.09, { type: "triangle", gain: 0.05 });
  },
  force: (c, t) => {
    tone(c, t, 196, 0.22, { type: "sawtooth", gain: 0.035, to: 147 });
    tone(c, t + 0.02, 294, 0.2, { type: "triangle", gain: 0.04 });
  },
  end: (c, t) => {
    [523, 659, 784, 1047].forEach((f, i) => tone(c, t + i * 0.09, f, 0.28, { type: "triangle", gain: 0.05 }));
  },
};

/** Play one of the table's sounds (nothing if the audio context cannot run).
 * @param {SoundKind} kind */
export function playSound(kind) {
  if (!context || !SOUNDS[kind]) return false;
  try {
    SOUNDS[kind](context, context.currentTime + 0.01);
    return true;
  } catch {
    return false;
  }
}
