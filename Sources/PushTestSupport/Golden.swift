import PushRender
