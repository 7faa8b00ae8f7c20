import { test } from 'node:test';
import { cases } from '../case.mjs';
import { LINE_CASES } from '../cases/line.mjs';

cases(test, LINE_CASES);
