import { z } from 'zod';

// Validation messages in Chinese on both sides (SPEC: the interface is in Chinese).
z.config(z.locales.zhCN());
