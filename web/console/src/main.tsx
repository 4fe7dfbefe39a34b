import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../../shared/styles.css';
import { createQueryClient, QueryProvider } from '../../shared/query.tsx';
import { App } from './App.tsx';

const queryClient = createQueryClient();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryProvider client={queryClient}>
        <App />
      </QueryProvider>
    </StrictMode>,
  );
}
