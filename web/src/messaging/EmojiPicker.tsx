import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { SmileIcon } from '../videos/icons';
import './messaging.css';

/**
 * Emoji picker (the product business constants: 6 skin tones, at most 6 variations shown).
 *
 * - a grid of common emojis; arrows move (8 per row), Home/End jump, Enter/Space pick;
 * - a radio group of 6 skin tones, applied to the emojis that accept one;
 * - an emoji with variations (skin tones, colours…) opens them with Shift+Enter,
 *   the context-menu key, a right click or a long press; at most 6 are shown.
 *
 *   <EmojiPicker onSelect={(emoji) => insert(emoji)} />   // inline panel
 *   <EmojiButton onSelect={(emoji) => insert(emoji)} />   // button + popover
 */

export const MAX_VARIATIONS = 6;
const COLUMNS = 8;
const LONG_PRESS_MS = 450;

export interface SkinTone {
  id: string;
  label: string;
  /** Fitzpatrick modifier appended to the emoji ('' = default yellow). */
  modifier: string;
  swatch: string;
}

export const SKIN_TONES: SkinTone[] = [
  { id: 'default', label: 'Teinte par défaut', modifier: '', swatch: '#ffc83d' },
  { id: 'light', label: 'Peau claire', modifier: '\u{1F3FB}', swatch: '#f7dece' },
  { id: 'medium-light', label: 'Peau moyennement claire', modifier: '\u{1F3FC}', swatch: '#f3d2a2' },
  { id: 'medium', label: 'Peau mate', modifier: '\u{1F3FD}', swatch: '#d5ab88' },
  { id: 'medium-dark', label: 'Peau moyennement foncée', modifier: '\u{1F3FE}', swatch: '#af7e57' },
  { id: 'dark', label: 'Peau foncée', modifier: '\u{1F3FF}', swatch: '#7c533e' },
];

export interface EmojiDef {
  char: string;
  name: string;
  /** Accepts a skin tone modifier. */
  tone?: boolean;
  /** Other forms (the first is the emoji itself). */
  variations?: string[];
}

export const EMOJIS: EmojiDef[] = [
  { char: '😀', name: 'Visage souriant', variations: ['😀', '😃', '😄', '😁', '😆', '😊', '🙂'] },
  { char: '😂', name: 'Larmes de joie', variations: ['😂', '🤣', '😹'] },
  { char: '😍', name: 'Yeux en cœur', variations: ['😍', '🥰', '😻', '🤩'] },
  { char: '😘', name: 'Bisou', variations: ['😘', '😗', '😙', '😚', '😽'] },
  { char: '😎', name: 'Lunettes de soleil' },
  { char: '😉', name: "Clin d'œil" },
  { char: '😅', name: 'Sourire gêné' },
  { char: '😇', name: 'Auréole' },
  { char: '🤔', name: 'Visage pensif' },
  { char: '😮', name: 'Bouche ouverte', variations: ['😮', '😯', '😲', '😱'] },
  { char: '😢', name: 'Larme', variations: ['😢', '😭', '🥲', '😿'] },
  { char: '😡', name: 'Colère', variations: ['😡', '😠', '🤬', '😤'] },
  { char: '😴', name: 'Endormi' },
  { char: '🥳', name: 'Fête' },
  { char: '🤗', name: 'Câlin' },
  { char: '🙄', name: 'Yeux au ciel' },
  { char: '👍', name: 'Pouce levé', tone: true },
  { char: '👎', name: 'Pouce baissé', tone: true },
  { char: '👏', name: 'Applaudissements', tone: true },
  { char: '🙌', name: 'Mains levées', tone: true },
  { char: '🙏', name: 'Mains jointes', tone: true },
  { char: '💪', name: 'Biceps', tone: true },
  { char: '👋', name: 'Salut de la main', tone: true },
  { char: '👌', name: "D'accord", tone: true },
  { char: '✌️', name: 'Victoire', tone: true },
  { char: '🤞', name: 'Doigts croisés', tone: true },
  { char: '🤙', name: 'Appelle-moi', tone: true },
  { char: '👊', name: 'Poing', tone: true },
  { char: '❤️', name: 'Cœur', variations: ['❤️', '🧡', '💛', '💚', '💙', '💜', '🖤', '🤍'] },
  { char: '🔥', name: 'Feu' },
  { char: '✨', name: 'Étincelles' },
  { char: '🎉', name: 'Cotillons' },
  { char: '💯', name: 'Cent points' },
  { char: '⭐', name: 'Étoile', variations: ['⭐', '🌟', '💫'] },
  { char: '🎁', name: 'Cadeau' },
  { char: '🎶', name: 'Notes de musique' },
  { char: '📸', name: 'Appareil photo' },
  { char: '🎬', name: 'Clap de cinéma' },
  { char: '🌈', name: 'Arc-en-ciel' },
  { char: '☀️', name: 'Soleil' },
];

/** Applies a skin tone: the modifier goes right after the first code point (variation selectors dropped). */
export function applyTone(emoji: string, modifier: string): string {
  if (!modifier) return emoji;
  const [first, ...rest] = Array.from(emoji.replace(/\uFE0F/g, ''));
  return `${first}${modifier}${rest.join('')}`;
}

/** The variations of an emoji, at most MAX_VARIATIONS; [] when it has none. */
export function variationsOf(def: EmojiDef): string[] {
  const all = def.tone ? SKIN_TONES.map((tone) => applyTone(def.char, tone.modifier)) : (def.variations ?? []);
  return all.length > 1 ? all.slice(0, MAX_VARIATIONS) : [];
}

/** Remembered for the visit, shared by every picker. */
let rememberedTone = SKIN_TONES[0].id;

interface EmojiPickerProps {
  onSelect: (emoji: string) => void;
  /** Escape on the picker (the popover closes itself). */
  onClose?: () => void;
  /** Focus the first emoji when mounted. */
  autoFocus?: boolean;
}

export function EmojiPicker({ onSelect, onClose, autoFocus }: EmojiPickerProps) {
  const [toneId, setToneId] = useState(rememberedTone);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const [variantIndex, setVariantIndex] = useState(0);
  const cells = useRef<Array<HTMLButtonElement | null>>([]);
  const variantRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const toneRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const pressTimer = useRef<number | null>(null);
  const suppressClick = useRef(false);
  const hintId = useId();
  const labelId = useId();
  const tone = SKIN_TONES.find((t) => t.id === toneId) ?? SKIN_TONES[0];
  const openDef = open === null ? null : EMOJIS[open];
  const openVariations = openDef ? variationsOf(openDef) : [];

  useEffect(() => {
    if (autoFocus) cells.current[0]?.focus();
  }, [autoFocus]);

  useEffect(() => {
    if (open !== null) variantRefs.current[variantIndex]?.focus();
  }, [open, variantIndex]);

  useEffect(
    () => () => {
      if (pressTimer.current !== null) window.clearTimeout(pressTimer.current);
    },
    [],
  );

  const displayed = (def: EmojiDef) => (def.tone ? applyTone(def.char, tone.modifier) : def.char);

  const chooseTone = (index: number) => {
    const next = SKIN_TONES[(index + SKIN_TONES.length) % SKIN_TONES.length];
    rememberedTone = next.id;
    setToneId(next.id);
    toneRefs.current[SKIN_TONES.indexOf(next)]?.focus();
  };

  const focusCell = (index: number) => {
    const next = Math.max(0, Math.min(EMOJIS.length - 1, index));
    setActive(next);
    cells.current[next]?.focus();
  };

  const openVariationsOf = (index: number) => {
    if (variationsOf(EMOJIS[index]).length === 0) return;
    setActive(index);
    setVariantIndex(0);
    setOpen(index);
  };

  const closeVariations = () => {
    const origin = open;
    setOpen(null);
    if (origin !== null) cells.current[origin]?.focus();
  };

  const onCellKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + COLUMNS,
      ArrowUp: index - COLUMNS,
      Home: 0,
      End: EMOJIS.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      focusCell(moves[event.key]);
    } else if ((event.key === 'Enter' && event.shiftKey) || event.key === 'ContextMenu') {
      event.preventDefault();
      openVariationsOf(index);
    } else if (event.key === 'Escape' && onClose) {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  const onVariantKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const count = openVariations.length;
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: count - 1 };
    if (event.key in moves) {
      event.preventDefault();
      setVariantIndex((moves[event.key] + count) % count);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeVariations();
    }
  };

  const onToneKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
      event.preventDefault();
      chooseTone(index + 1);
    } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
      event.preventDefault();
      chooseTone(index - 1);
    } else if (event.key === 'Escape' && onClose) {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  const startPress = (event: PointerEvent<HTMLButtonElement>, index: number) => {
    if (event.button !== 0) return;
    suppressClick.current = false;
    if (pressTimer.current !== null) window.clearTimeout(pressTimer.current);
    pressTimer.current = window.setTimeout(() => {
      suppressClick.current = true;
      openVariationsOf(index);
    }, LONG_PRESS_MS);
  };

  const endPress = () => {
    if (pressTimer.current !== null) window.clearTimeout(pressTimer.current);
    pressTimer.current = null;
  };

  return (
    <div className="emoji-picker" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="sr-only">
        Choisir un émoji
      </p>
      <div className="emoji-picker__tones" role="radiogroup" aria-label="Teinte de peau">
        {SKIN_TONES.map((t, index) => (
          <button
            key={t.id}
            ref={(element) => {
              toneRefs.current[index] = element;
            }}
            type="button"
            role="radio"
            aria-checked={t.id === tone.id}
            aria-label={t.label}
            title={t.label}
            tabIndex={t.id === tone.id ? 0 : -1}
            className="emoji-picker__tone"
            style={{ background: t.swatch }}
            onClick={() => chooseTone(index)}
            onKeyDown={(event) => onToneKeyDown(event, index)}
          />
        ))}
      </div>

      {openDef ? (
        <div className="emoji-picker__variations" role="group" aria-label={`Variantes : ${openDef.name}`}>
          {openVariations.map((variant, index) => (
            <button
              key={variant}
              ref={(element) => {
                variantRefs.current[index] = element;
              }}
              type="button"
              className="emoji-picker__emoji"
              tabIndex={index === variantIndex ? 0 : -1}
              aria-label={
                openDef.tone
                  ? `${openDef.name}, ${SKIN_TONES[index].label.toLowerCase()}`
                  : `${openDef.name}, variante ${index + 1}`
              }
              onClick={() => {
                setOpen(null);
                onSelect(variant);
              }}
              onKeyDown={(event) => onVariantKeyDown(event, index)}
            >
              <span aria-hidden="true">{variant}</span>
            </button>
          ))}
          <button
            type="button"
            className="emoji-picker__close"
            aria-label="Fermer les variantes"
            onClick={closeVariations}
          >
            ×
          </button>
        </div>
      ) : null}

      <div className="emoji-picker__grid" role="group" aria-label="Émojis" aria-describedby={hintId}>
        {EMOJIS.map((def, index) => {
          const hasVariations = variationsOf(def).length > 0;
          return (
            <button
              key={def.char}
              ref={(element) => {
                cells.current[index] = element;
              }}
              type="button"
              className={hasVariations ? 'emoji-picker__emoji emoji-picker__emoji--more' : 'emoji-picker__emoji'}
              tabIndex={index === active ? 0 : -1}
              aria-label={def.name}
              aria-haspopup={hasVariations ? 'true' : undefined}
              aria-expanded={hasVariations ? open === index : undefined}
              title={def.name}
              onFocus={() => setActive(index)}
              onClick={() => {
                if (suppressClick.current) {
                  suppressClick.current = false;
                  return;
                }
                onSelect(displayed(def));
              }}
              onContextMenu={(event) => {
                if (!hasVariations) return;
                event.preventDefault();
                endPress();
                openVariationsOf(index);
              }}
              onPointerDown={(event) => hasVariations && startPress(event, index)}
              onPointerUp={endPress}
              onPointerLeave={endPress}
              onKeyDown={(event) => onCellKeyDown(event, index)}
            >
              <span aria-hidden="true">{displayed(def)}</span>
            </button>
          );
        })}
      </div>
      <p id={hintId} className="emoji-picker__hint">
        Appui long ou Maj+Entrée : variantes
      </p>
    </div>
  );
}

/** A button opening the picker in a popover; Escape or an outside click closes it. */
export function EmojiButton({ onSelect, disabled }: { onSelect: (emoji: string) => void; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const popoverId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: globalThis.PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <div className="emoji-button" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button emoji-button__toggle"
        aria-label="Insérer un émoji"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        <SmileIcon />
      </button>
      {open ? (
        <div id={popoverId} className="emoji-button__popover">
          <EmojiPicker
            autoFocus
            onClose={close}
            onSelect={(emoji) => {
              setOpen(false);
              onSelect(emoji);
            }}
          />
        </div>
      ) : null}
    </div>
  );
}
