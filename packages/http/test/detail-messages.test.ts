import { describe, expect, it } from 'vitest';
import { constraintMessage } from '../src/detail-messages.js';

describe('constraint messages', () => {
  it('write German numbers in the German dialect and English ones in English', () => {
    expect(constraintMessage('zimmer', { multiple_of: 0.5 }, 'de')).toBe('zimmer muss ein Vielfaches von 0,5 sein.');
    expect(constraintMessage('rooms', { multiple_of: 0.5 }, 'en')).toBe('rooms must be a multiple of 0.5.');
    expect(constraintMessage('body', { max_bytes: 1_048_576 }, 'de')).toBe(
      'body darf höchstens 1.048.576 Bytes groß sein.',
    );
    expect(constraintMessage('flaeche', { minimum: 0.5, maximum: 10_000 }, 'de')).toBe(
      'flaeche muss zwischen 0,5 und 10.000 liegen.',
    );
  });
});
