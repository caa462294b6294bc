import { contextBridge, ipcRenderer } from 'electron';

/**
 * The whole bridge between the page and the app: its start-up config (API key, API base, mode) and the
 * kiosk's staff exit. Nothing else of Node or Electron reaches the renderer.
 */
contextBridge.exposeInMainWorld('kassa', {
  config: (): Promise<unknown> => ipcRenderer.invoke('kassa:config'),
  staffExit: (pin: string): Promise<boolean> => ipcRenderer.invoke('kassa:staff-exit', String(pin)),
  onStaffExitRequested(listener: () => void): () => void {
    const handler = () => listener();
    ipcRenderer.on('kassa:staff-exit-requested', handler);
    return () => ipcRenderer.removeListener('kassa:staff-exit-requested', handler);
  },
});
