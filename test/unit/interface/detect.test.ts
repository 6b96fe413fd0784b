/**
 * detect.ts scores as franc-min scores (it builds the tables lazily, franc-min at import): the same
 * languages, in the same order, with the same scores, on real sentences and generated text.
 */
import fc from 'fast-check';
import { francAll } from 'franc-min';
import { describe, expect, it } from 'vitest';
import { languageScores } from '../../../src/core/detect';

const SENTENCES = [
  'The quick brown fox jumps over the lazy dog, and then it sleeps.',
  'Hola, ¿cómo estás hoy? Estoy muy bien, gracias por preguntar.',
  'Le renard brun rapide saute par-dessus le chien paresseux.',
  'Der schnelle braune Fuchs springt über den faulen Hund.',
  'A rápida raposa marrom pula sobre o cão preguiçoso.',
  'Быстрая коричневая лиса прыгает через ленивую собаку.',
  'Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο.',
  '你好，今天怎么样？我很好，谢谢你的关心。',
  'こんにちは、今日はいい天気ですね。散歩に行きましょう。',
  'مرحبا، كيف حالك اليوم؟ أنا بخير، شكرا لسؤالك.',
  'नमस्ते, आज आप कैसे हैं? मैं ठीक हूँ, पूछने के लिए धन्यवाद।',
  'Bon dia, com estàs avui? Estic molt bé, gràcies.',
  '1234567890 1234567890',
  'short',
  '',
];

describe('languageScores', () => {
  it('equals franc-min on sentences of many scripts and languages', () => {
    for (const s of SENTENCES) expect(languageScores(s), s).toEqual(francAll(s));
  });

  it('equals franc-min on generated text', () => {
    const words = fc.constantFrom(...SENTENCES.flatMap((s) => s.split(/\s+/)).filter(Boolean));
    const mixed = fc.array(fc.oneof(words, fc.string({ unit: 'grapheme', maxLength: 12 })), { minLength: 0, maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(fc.property(mixed, (text) => {
      expect(languageScores(text)).toEqual(francAll(text));
    }), { numRuns: 400 });
  });

  it('reads at most 2048 characters, as franc-min does', () => {
    const long = `${SENTENCES[1]} `.repeat(60) + SENTENCES[5]!.repeat(80);
    expect(languageScores(long)).toEqual(francAll(long));
    expect(languageScores(long)[0]![0]).toBe('spa');
  });
});
