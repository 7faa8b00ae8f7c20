import { test } from 'node:test';
import { cases } from '../case.mjs';
import { FRONTMATTER_CASES } from '../cases/frontmatter.mjs';

cases(test, FRONTMATTER_CASES);
