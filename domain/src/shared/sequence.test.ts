import { describe, expect, it } from 'vitest';
import { given } from './given-when-then';
import { sequenceDecider, type IdAssigned } from './sequence';

const assigned = (value: number): IdAssigned => ({ type: 'IdAssigned', data: { value } });

describe('sequence decider (id blocks)', () => {
  it('reserves the next `count` ids after the highest value assigned', () => {
    given(sequenceDecider)
      .when({ type: 'ReserveIds', count: 64 })
      .then([assigned(64)]);
    given(sequenceDecider, [assigned(64)])
      .when({ type: 'ReserveIds', count: 8 })
      .then([assigned(72)]);
  });
  it('continues a sequence written one id per event', () => {
    given(sequenceDecider, [assigned(1), assigned(2), assigned(3)])
      .when({ type: 'ReserveIds', count: 1 })
      .then([assigned(4)]);
  });
  it('reserves above `above` when it is beyond the highest value (the ids in between are a gap)', () => {
    given(sequenceDecider, [assigned(64)])
      .when({ type: 'ReserveIds', count: 4, above: 100 })
      .then([assigned(104)]);
    given(sequenceDecider, [assigned(64)])
      .when({ type: 'ReserveIds', count: 4, above: 10 })
      .then([assigned(68)]);
  });
  it('refuses a block of no id', () => {
    expect(() => sequenceDecider.decide({ type: 'ReserveIds', count: 0 }, { last: 0 })).toThrow(RangeError);
  });
});
