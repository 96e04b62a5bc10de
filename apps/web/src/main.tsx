import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import './app/dayjs-setup.ts';
import './app/global.css';
import { configureApi } from './api/client.ts';
import { AppProviders } from './app/providers.tsx';
import { queryClient } from './app/query-client.ts';
import { router } from './app/router.tsx';

configureApi({
  navigate: (to) => void router.navigate(to),
  currentPath: () => router.state.location.pathname + router.state.location.search,
  onSessionExpired: () => queryClient.clear(),
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
