import { defineConfig } from 'tsup';
import { packageBuild } from '../../tsup.base';

export default defineConfig(
  packageBuild(
    { index: 'src/index.ts', bin: 'src/bin.ts', 'bench-llm': 'src/bench-llm.ts' },
    { dts: { entry: { index: 'src/index.ts' } }, banner: { js: '#!/usr/bin/env node' } },
  ),
);
