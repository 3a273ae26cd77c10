// What a string's unit in another translation becomes when its monolingual template's source is edited.
import { describe, expect, it } from 'vitest';
import { State } from '../domain/unit.js';
import { sourceChangedState } from './template-source.js';

describe('sourceChangedState', () => {
  const unit = (state: number, target = 'Speichern', previous_source = '') => ({ state, target, previous_source });

  it('makes a translated or approved string need editing, the old source its previous source', () => {
    expect(sourceChangedState(unit(State.TRANSLATED), 'Save', 'Save all')).toEqual({ state: State.FUZZY, previousSource: 'Save' });
    expect(sourceChangedState(unit(State.APPROVED), 'Save', 'Save all')).toEqual({ state: State.FUZZY, previousSource: 'Save' });
  });

  it('makes a string translated again when the source is back to what it was translated from', () => {
    expect(sourceChangedState(unit(State.FUZZY, 'Speichern', 'Save'), 'Save all', 'Save')).toEqual({ state: State.TRANSLATED, previousSource: '' });
  });

  it('leaves empty, read-only and otherwise needing-editing strings as they are', () => {
    expect(sourceChangedState(unit(State.EMPTY, ''), 'Save', 'Save all')).toEqual({ state: State.EMPTY, previousSource: '' });
    expect(sourceChangedState(unit(State.READONLY), 'Save', 'Save all')).toEqual({ state: State.READONLY, previousSource: '' });
    expect(sourceChangedState(unit(State.FUZZY, 'Speichern', 'Store'), 'Save', 'Save all')).toEqual({ state: State.FUZZY, previousSource: 'Store' });
  });
});
